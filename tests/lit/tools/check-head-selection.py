"""check-head-selection.py RUN_DIR TRAINER_OUTPUT HEADS: recomputes regalloc-es's head selection from
the run's own measurements (checkpoint/train-modules.jsonl: greedy's per-function costs and bytes;
checkpoint/candidate-heads.jsonl: every candidate head's; checkpoint/candidate-options.jsonl, if
there, the heads with allocator options, candidates numbered after the drawn ones) and checks
that the trainer chose the same heads in the same order, with the same training figures: up to
HEADS of them, stopping only when no candidate lowers the training cost. A head may take a
function only if it does not make the function larger. Prints "ok, N heads"."""
import json
import math
import re
import sys

run, output, k = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3])


def last_lines(path):
    """hash -> (costs, bytes) of the last line with bytes (the ones the trainer reads)."""
    out = {}
    try:
        for line in open(path):
            d = json.loads(line)
            if "bytes" in d:
                out[d["hash"]] = list(zip(d["heads"], d["bytes"]))
    except FileNotFoundError:
        pass
    return out


greedy = {}
for line in open(run + "/checkpoint/train-modules.jsonl"):
    d = json.loads(line)
    if "function_bytes" in d or d["cost"] < 0:
        greedy[d["hash"]] = d
drawn = last_lines(run + "/checkpoint/candidate-heads.jsonl")
options = last_lines(run + "/checkpoint/candidate-options.jsonl")
rows = []
for h, heads in drawn.items():
    g = greedy[h]
    if options:
        if h not in options:
            continue  # not measured with options: the trainer leaves it out of the choice
        heads = heads + options[h]
    if g["cost"] < 1.0:  # the trainer trains on modules with a cost of at least 1
        continue
    rows.append((g, heads))
n_candidates = len(rows[0][1]) if rows else 0


def module_cost(g, heads):
    """The compiler's choice (chooseHeads), recomputed: each costly function at its cheapest
    allocation (none costlier than greedy's), then, while the functions would grow in all, the cheapest trade per byte given
    up. Returns the module's cost."""
    gb = g["function_bytes"]
    funcs = []
    for name in sorted(f for f, c in g["functions"].items() if c > 0):
        gc = g["functions"][name]
        opts = [(gc, 0)]
        for cost, size in heads:
            if cost.get(name, 0) <= gc and name in gb and name in size:
                opts.append((cost.get(name, 0), size[name] - gb[name]))
        chosen = 0
        for o in range(1, len(opts)):
            a, b = opts[o], opts[chosen]
            if a[0] < b[0] or (a[0] == b[0] and a[1] < b[1]):
                chosen = o
        funcs.append([opts, chosen])
    growth = sum(f[0][f[1]][1] for f in funcs)
    while growth > 0:
        best, best_rate, best_saved = None, math.inf, 0
        for f in funcs:
            opts, cur = f
            for o in range(len(opts)):
                saved = opts[cur][1] - opts[o][1]
                if saved <= 0:
                    continue
                rate = (opts[o][0] - opts[cur][0]) / saved
                if rate < best_rate or (rate == best_rate and saved > best_saved):
                    best, best_rate, best_saved = (f, o), rate, saved
        growth -= best_saved
        best[0][1] = best[1]
    c = g["cost"]
    for opts, cur in funcs:
        c += opts[cur][0] - opts[0][0]
    return c


def objective(chosen):
    return sum(math.log((g["cost"] + 1) / (module_cost(g, [heads[i] for i in chosen]) + 1))
               for g, heads in rows)


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
