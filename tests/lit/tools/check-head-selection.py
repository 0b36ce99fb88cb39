"""check-head-selection.py RUN_DIR TRAINER_OUTPUT HEADS: recomputes regalloc-es's head selection from
the run's own measurements (checkpoint/train-modules.jsonl: greedy's per-function costs;
checkpoint/candidate-heads.jsonl: every candidate head's) and checks that the trainer chose the
same heads in the same order, with the same training figures: up to HEADS of them, stopping
only when no candidate lowers the training cost. Prints "ok, N heads"."""
import json
import math
import re
import sys

run, output, k = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3])
greedy = {}
for line in open(run + "/checkpoint/train-modules.jsonl"):
    d = json.loads(line)
    greedy[d["hash"]] = d
rows = []
for line in open(run + "/checkpoint/candidate-heads.jsonl"):
    d = json.loads(line)
    g = greedy[d["hash"]]
    if g["cost"] < 1.0:  # the trainer trains on modules with a cost of at least 1
        continue
    costly = {f: c for f, c in g["functions"].items() if c > 0}
    rows.append((g["cost"], costly, d["heads"]))
n_candidates = len(rows[0][2]) if rows else 0


def objective(heads):
    total = 0
    for g, costly, cand in rows:
        c = g - sum(gc - min([gc] + [cand[h].get(f, 0) for h in heads]) for f, gc in costly.items())
        total += math.log((g + 1) / (c + 1))
    return total


want = [(int(c), float(x)) for c, x in
        re.findall(r"head \d+: candidate (\d+), training cost ([0-9.]+) x greedy", output)]
chosen, current = [], 0.0
while len(chosen) < min(k, n_candidates):
    value, h = max((objective(chosen + [h]), -h) for h in range(n_candidates) if h not in chosen)
    if value <= current + 1e-9:
        break  # no candidate helps any more
    chosen.append(-h)
    current = value
got = [c for c, _ in want]
assert got == chosen, "trainer chose %s, recomputed %s" % (got, chosen)
for step, (c, x) in enumerate(want):
    figure = math.exp(-objective(chosen[:step + 1]) / len(rows))
    assert abs(figure - x) < 1e-3, (c, x, figure)
print("ok, %d heads" % len(got))
