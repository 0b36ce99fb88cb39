#!/usr/bin/env python3
"""check-metrics.py LOG: each decision's values are in the unit of its metric."""
import json, sys

for d in map(json.loads, open(sys.argv[1])):
    m, base = d["metric"], d["baseline"]
    if m in ("text", "file"):
        key = m + "_bytes"
        assert base["value"] == base[key], (base, key)
        for c in d["candidates"]:
            if c["outcome"] == "ok":
                assert c["value"] == c[key], c
        print(m, "value=" + key)
    elif m == "ir":
        # IR counts are far smaller than byte counts of the same file, and never zero.
        assert 0 < base["value"] < base["image_bytes"], base
        for c in d["candidates"]:
            if c["outcome"] == "ok":
                assert c["value"] == c["ir_after"], c
        print("ir baseline-ir-measured")
