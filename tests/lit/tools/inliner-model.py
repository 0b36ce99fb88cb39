"""inliner-model.py BIAS OUT SMARTCC_TRAIN: writes an inliner model (the shipped format,
policies/model/ExportedModel.h) whose logit is BIAS whatever the features (their count is what
SMARTCC_TRAIN --print-inliner-features lists): > 0 inlines every call site it is asked about,
< 0 none. Deliberately bad policies for the compiler's tests."""
import json
import struct
import subprocess
import sys

bias, out, trainer = float(sys.argv[1]), sys.argv[2], sys.argv[3]
n = len(subprocess.run([trainer, "--print-inliner-features"], check=True, capture_output=True,
                       text=True).stdout.split())
meta = {"kind": "inliner", "trainer": "test", "input_size": n,
        "layers": [{"kind": "linear", "in": n, "out": 1, "offset": 0}]}
with open(out, "wb") as f:
    f.write(b"SMARTCC-MODEL 1\n")
    f.write(json.dumps(meta).encode() + b"\n")
    f.write(struct.pack("<%df" % (n + 1), *([0.0] * n + [bias])))
