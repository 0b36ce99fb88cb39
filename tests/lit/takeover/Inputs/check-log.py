#!/usr/bin/env python3
"""check-log.py LOG N: validates smartcc's JSON-lines decision log."""
import json, os, sys

lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == int(sys.argv[2]), len(lines)
print("lines", len(lines))
for d in lines:
    for key in ("directory", "input", "output", "target", "level", "metric", "baseline", "candidates", "chosen"):
        assert key in d, key
    assert d["shipped_value"] <= d["baseline"]["value"]
    assert d["saved"] == d["baseline"]["value"] - d["shipped_value"]
    for c in d["candidates"]:
        assert {"name", "outcome", "ms"} <= set(c), c
        if c["outcome"] == "ok":
            assert c["value"] > 0
    if d["chosen"] != "baseline":
        winner = [c for c in d["candidates"] if c["name"] == d["chosen"]][0]
        assert winner["value"] < d["baseline"]["value"]
    print(os.path.basename(d["input"]), "chosen=" + d["chosen"])
