"""linear-model.py KIND OUT SMARTCC_TRAIN BIAS [FEATURE=WEIGHT ...] [/ BIAS FEATURE=WEIGHT ...]:
writes a one-layer model in the shipped format (policies/model/ExportedModel.h) of KIND
"inliner" or "regalloc", reading the feature names from SMARTCC_TRAIN --print-KIND-features:
output = BIAS + sum of the given weights times their features. A "/" starts another output
(a register-allocation policy's next head); evict:FEATURE=WEIGHT gives that head eviction
weights ("head_evictions", policies/regalloc/RegAllocPolicy.h). Deliberately bad policies for the compiler's
tests: an inliner with BIAS 1 inlines every call site it is asked about, -1 none; a register
allocator with log_size_instrs=-3 queues short ranges first, against LLVM's long-first order."""
import json
import struct
import subprocess
import sys

kind, out, trainer = sys.argv[1], sys.argv[2], sys.argv[3]
names = subprocess.run([trainer, "--print-%s-features" % kind], check=True,
                       capture_output=True, text=True).stdout.split()
heads = [[]]
for arg in sys.argv[4:]:
    if arg == "/":
        heads.append([])
    else:
        heads[-1].append(arg)
rows, biases, evictions = [], [], []
for spec in heads:
    weights = [0.0] * len(names)
    evict = {}
    for item in spec[1:]:
        name, value = item.split("=")
        if name.startswith("evict:"):
            evict[name[len("evict:"):]] = float(value)
        else:
            weights[names.index(name)] = float(value)
    rows += weights
    biases.append(float(spec[0]))
    evictions.append(evict or None)
meta = {"kind": kind, "trainer": "test", "input_size": len(names),
        "layers": [{"kind": "linear", "in": len(names), "out": len(heads), "offset": 0}]}
if any(evictions):
    meta["head_evictions"] = evictions
with open(out, "wb") as f:
    f.write(b"SMARTCC-MODEL 1\n")
    f.write(json.dumps(meta).encode() + b"\n")
    f.write(struct.pack("<%df" % (len(rows) + len(biases)), *(rows + biases)))
