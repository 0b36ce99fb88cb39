#!/usr/bin/env python3
"""link-decisions-ratio.py: what smartcc's owned LTO links saved, from a link-bench run's
decision logs alone (no clang build needed: each decision holds clang's own link, measured).

    python3 scripts/link-decisions-ratio.py OUT [OUT...]

OUT: a scripts/link-bench.py output folder (its logs/*.smartcc.decisions.jsonl), e.g. of a
`--compilers smartcc` run on the training links. Per project: clang's link image bytes summed
over the owned links, over the shipped ones (> 1: smartcc smaller); then the total and the
geomean over projects. Python 3 standard library only.
"""
import collections
import glob
import json
import math
import os
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for out in sys.argv[1:]:
        per = collections.defaultdict(lambda: [0, 0])
        for f in sorted(glob.glob(os.path.join(out, "logs", "*.smartcc.decisions.jsonl"))):
            project = os.path.basename(f).split(".")[0]
            for line in open(f):
                r = json.loads(line)
                base = r.get("baseline", {}).get("image_bytes")
                if r.get("kind") != "link" or not base:
                    continue
                per[project][0] += base
                per[project][1] += r.get("shipped_value", base)
        if not per:
            print(f"{out}: no owned links")
            continue
        clang = sum(v[0] for v in per.values())
        shipped = sum(v[1] for v in per.values())
        geomean = math.exp(sum(math.log(v[0] / v[1]) for v in per.values()) / len(per))
        projects = " ".join(f"{p} {v[0] / v[1]:.4f}" for p, v in sorted(per.items()))
        print(f"{out}: total {clang / shipped:.4f} geomean over projects {geomean:.4f}; {projects}")


if __name__ == "__main__":
    main()
