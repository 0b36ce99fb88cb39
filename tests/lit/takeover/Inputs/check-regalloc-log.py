"""check-regalloc-log.py LOG DIR [GROWTH]: for every compile smartcc logged at -O1..-O3 with ML
register allocation, the shipped object is clang's own (byte-identical to DIR/NAME.clang.o)
unless the ML allocation's spill cost is strictly lower, and then that object is the one
written, larger than clang's by at most GROWTH percent (regalloc_growth, default 1) of its
allocated bytes."""
import filecmp
import json
import os
import sys

log, out = sys.argv[1], sys.argv[2]
growth = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
lines = [json.loads(l) for l in open(log)]
assert lines, "nothing logged"
won = 0
for l in lines:
    assert l["metric"] == "regalloc_cost", l
    assert l.get("regalloc", "").endswith(".smm"), l
    base = l["baseline"]["value"]
    name = os.path.basename(l["output"])[: -len(".smartcc.o")]
    shipped = os.path.join(out, name + ".smartcc.o")
    clang = os.path.join(out, name + ".clang.o")
    ml = [c for c in l["candidates"] if c["name"] == "ml-regalloc"]
    assert ml and ml[0]["outcome"] == "ok", l
    if l["chosen"] == "baseline":
        assert ml[0]["value"] >= base, l
        assert filecmp.cmp(shipped, clang, shallow=False), name + ": not clang's object"
    else:
        assert l["chosen"] == "ml-regalloc" and ml[0]["value"] < base, l
        clang_bytes = l["baseline"]["image_bytes"]
        assert ml[0]["image_bytes"] <= clang_bytes + int(clang_bytes * growth / 100), l
        won += 1
    print(name, "baseline", base, "ml", ml[0]["value"], "chosen", l["chosen"])
print("ok,", won, "of", len(lines), "shipped the ML allocation")
