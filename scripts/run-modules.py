#!/usr/bin/env python3
"""run-modules.py CHECKPOINT.jsonl: the module hashes a training run used, sorted, one a line,
from its checkpoint's module list (RUN/checkpoint/train-modules.jsonl or
validation-modules.jsonl). The corpus may hold more modules later: these lists reproduce the
run (the ship stages of train-regalloc.sh and train-inliner.sh)."""
import json
import sys

print("\n".join(sorted({json.loads(l)["hash"] for l in open(sys.argv[1]) if l.strip()})))
