#!/usr/bin/env python3
"""How far can effort 1's three candidates get toward the core set's oracle? (issue 21)

Effort 1 compiles three of the core set's sequences (the value model's first choice and the
core set's first two others in mined order) and ships the smallest. This study replays other
ways of choosing those candidates on measured value tables (smartcc-coreset output), so each
rule is judged on the same measured bytes, and asks where the gap to the oracle is:

  - fixed rules mined on the training table (the best triple; the best pair for each first
    choice);
  - per-TU rules that use more information than the shipped model does: the triple that did
    best on the K training modules nearest in the observation (Autophase, standardized), and a
    two-stage rule that measures two fixed sequences first and picks the third by what did best
    on the training modules whose two measured gains were nearest (the matrix-completion view:
    the measured gains of two sequences on this very TU);
  - more candidates (first choice + the next fixed ones), with and without the compiler's
    candidate budget (a TU of S IR instructions affords floor(budget / S) of them);
  - the same work spread by the model's certainty (more candidates where it is least sure);
  - where the regret is (per-TU regret against the oracle, in bins), and the rank correlation a
    constant ordering reaches (what Spearman the model must beat to have learned per TU).

Inputs: each split is a table directory and the model's predictions on it, written by
`smartcc-train --trainer value --score MODEL --table DIR --scores-out FILE`. The training split
(--train) is what fixed rules are mined on and what the per-TU rules look up; on it those rules
leave the TU itself out. Gains are log(clang / bytes) with clang's object kept where a
candidate is larger or failed, as the compiler does; geomeans are exp(mean gain).

  python3 scripts/effort1-study.py --train DIR:SCORES --split val=DIR:SCORES \\
      --split eval=DIR:SCORES [--knn 50] [--budget 3000] [--out FILE.md]
"""
import argparse, glob, itertools, json, math, os, sys


def load_split(spec):
    table_dir, scores = spec.rsplit(":", 1)
    seqs = json.load(open(os.path.join(table_dir, "coreset.json")))["sequences"]
    by_hash = {}
    for path in glob.glob(os.path.join(table_dir, "table", "*.jsonl")):
        for line in open(path):
            if line.strip():
                r = json.loads(line)
                by_hash[r["hash"]] = r
    rows, names = [], None
    for line in open(scores):
        s = json.loads(line)
        names = s["sequences"]  # the model's column order (--remine-order may permute)
        r = by_hash.get(s["hash"])
        if r is None or not r.get("clang"):
            continue
        order = [seqs.index(n) for n in names]
        vals = [r["values"][i] if r["values"][i] and r["values"][i] > 0 else None for i in order]
        obs = [math.log1p(max(0.0, x)) for x in r["obs"]]
        rows.append(dict(hash=r["hash"], clang=r["clang"], ir=r.get("ir", 0), vals=vals,
                         scores=s["scores"], obs=obs))
    if not rows:
        sys.exit("effort1-study.py: error: %s: no rows with predictions" % spec)
    return names, rows


def gain(r, cols):
    best = r["clang"]
    for c in cols:
        v = r["vals"][c]
        if v is not None and v < best:
            best = v
    return math.log(r["clang"] / best)


def single(r, j):  # one sequence's own gain, a failure counted as a 10 % loss
    v = r["vals"][j]
    return math.log(r["clang"] / v) if v else -0.1


def first_choice(r):
    return max(range(len(r["scores"])), key=lambda j: (r["scores"][j], -j))


def shipped(r, k=3):  # proposalsForEffort: first choice, then the others in column order
    f = first_choice(r)
    return [f] + [j for j in range(len(r["vals"])) if j != f][:k - 1]


def rank(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out, i = [0.0] * len(xs), 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2.0
        i = j + 1
    return out


def spearman(a, b):
    ra, rb = rank(a), rank(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va, vb = sum((x - ma) ** 2 for x in ra), sum((y - mb) ** 2 for y in rb)
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else 0.0


def mean_spearman(rows, predict):  # the rows smartcc-train --score counts
    total = n = 0
    for r in rows:
        idx = [j for j, v in enumerate(r["vals"]) if v]
        measured = [math.log(r["clang"] / r["vals"][j]) for j in idx]
        if len(measured) < 3 or all(m == measured[0] for m in measured):
            continue
        p = predict(r)
        total += spearman([p[j] for j in idx], measured)
        n += 1
    return total / n if n else 0.0


class Study:
    def __init__(self, names, train, knn):
        self.K, self.train, self.knn = len(names), train, knn
        K = self.K
        # (A core set of fewer than three sequences: effort 1 runs them all.)
        self.triples = list(itertools.combinations(range(K), min(3, K)))
        # Each training TU's gain under every triple: the table the per-TU rules look up.
        self.tg = [[gain(r, t) for t in self.triples] for r in train]
        n = len(train)
        self.glob = [sum(row[t] for row in self.tg) / n for t in range(len(self.triples))]
        d = len(train[0]["obs"])
        self.mu = [sum(r["obs"][i] for r in train) / n for i in range(d)]
        self.sd = [max(1e-6, math.sqrt(sum((r["obs"][i] - self.mu[i]) ** 2 for r in train) / n))
                   for i in range(d)]
        self.z = [self.std(r) for r in train]
        self.best_triple = self.triples[max(range(len(self.triples)), key=lambda t: self.glob[t])]
        self.pair_for = {}
        for c in range(K):
            others = [j for j in range(K) if j != c]
            self.pair_for[c] = max(itertools.combinations(others, min(2, len(others))),
                                   key=lambda p: sum(gain(r, (c,) + p) for r in train))
        # The two-stage rule measures effort 1's fixed pair (the core set's first two).
        self.stage_pair = tuple(range(min(2, K)))
        self.stage_x = [tuple(single(r, j) for j in self.stage_pair) for r in train]

    def std(self, r):
        return [(x - m) / s for x, m, s in zip(r["obs"], self.mu, self.sd)]

    def neighbours(self, dist, hash_):
        d = sorted((dist(i), i) for i in range(len(self.train)) if self.train[i]["hash"] != hash_)
        return [i for _, i in d[:self.knn]]

    def near_in_observation(self, r):  # the training TUs nearest in standardized Autophase
        z = self.std(r)
        return self.neighbours(lambda i: sum((a - b) ** 2 for a, b in zip(z, self.z[i])),
                               r["hash"])

    def knn_triple(self, r):
        near = self.near_in_observation(r)
        # The neighbours' mean, shrunk toward the whole training table's (weight 1).
        t = max(range(len(self.triples)),
                key=lambda t: sum(self.tg[i][t] for i in near) / max(1, len(near)) + self.glob[t])
        return self.triples[t]

    def two_stage(self, r):
        x = tuple(single(r, j) for j in self.stage_pair)
        near = self.neighbours(lambda i: sum((a - b) ** 2 for a, b in zip(x, self.stage_x[i])),
                               r["hash"])
        rest = [j for j in range(self.K) if j not in self.stage_pair]
        if not rest or not near:
            return self.stage_pair + tuple(rest[:1])
        third = max(rest, key=lambda j: sum(gain(self.train[i], self.stage_pair + (j,))
                                            for i in near))
        return self.stage_pair + (third,)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train", required=True, help="TABLE_DIR:SCORES of the training table")
    ap.add_argument("--split", action="append", default=[], help="NAME=TABLE_DIR:SCORES")
    ap.add_argument("--knn", type=int, default=50, help="neighbours of the per-TU rules")
    ap.add_argument("--budget", type=int, default=3000, help="candidate_budget to replay")
    ap.add_argument("--out", help="write the report here (markdown); default stdout")
    a = ap.parse_args()
    names, train = load_split(a.train)
    splits = [("train", train)]
    for s in a.split:
        name, spec = s.split("=", 1)
        n2, rows = load_split(spec)
        if n2 != names:
            sys.exit("effort1-study.py: error: %s: predictions in another column order" % spec)
        splits.append((name, rows))
    st = Study(names, train, a.knn)
    K = st.K
    out = []
    w = out.append

    def geo(rows, pick):
        return math.exp(sum(gain(r, pick(r)) for r in rows) / len(rows))

    oracle = {n: geo(rows, lambda r: range(K)) for n, rows in splits}

    def cell(n, g):
        share = math.log(g) / math.log(oracle[n]) if oracle[n] > 1 else 1.0
        return "%.4f (%.0f %%)" % (g, 100 * share)

    head = "| rule | candidates | " + " | ".join("%s (%d)" % (n, len(r)) for n, r in splits) + " |"
    w("## Choosing effort 1's candidates (geomean of clang -Oz bytes / bytes; share of the oracle)\n")
    w(head)
    w("|" + "---|" * (2 + len(splits)))
    rules = [
        ("oracle (the best of the core set)", K, lambda r: range(K)),
        ("shipped: first choice + first two others in mined order", 3, shipped),
        ("the model's top 3", 3, lambda r: sorted(range(K), key=lambda j: -r["scores"][j])[:3]),
        ("best fixed triple %s (mined on train)" % (st.best_triple,), 3, lambda r: st.best_triple),
        ("first choice + the best pair for it (mined on train)", 3,
         lambda r: (first_choice(r),) + st.pair_for[first_choice(r)]),
        ("per TU: best triple of the %d nearest training TUs (Autophase)" % a.knn, 3, st.knn_triple),
        ("two stages: first two fixed measured, third by the %d nearest in their gains" % a.knn, 3,
         st.two_stage),
        ("first choice + three others", 4, lambda r: shipped(r, 4)),
        ("first choice + four others", 5, lambda r: shipped(r, 5)),
    ]
    for title, n, pick in rules:
        w("| %s | %d | %s |" % (title, n, " | ".join(cell(s, geo(rows, pick)) for s, rows in splits)))
        print("effort1-study: %s" % title, file=sys.stderr, flush=True)

    w("\n## With the candidate budget (%d IR instructions: a TU of S affords floor(%d / S))\n"
      % (a.budget, a.budget))
    w("Work is the candidates' compiles weighted by IR instructions, in compiles of the split.\n")
    w("| candidates | " + " | ".join(s for s, _ in splits) + " |")
    w("|" + "---|" * (1 + len(splits)))
    for k in (3, 4, 5):
        def pick(r, k=k):
            return shipped(r, k)[:int(a.budget / max(1, r["ir"]))]
        cells = []
        for s, rows in splits:
            work = sum(len(pick(r)) * r["ir"] for r in rows) / max(1, sum(r["ir"] for r in rows))
            cells.append("%s, work %.2f" % (cell(s, geo(rows, pick)), work))
        w("| %d | %s |" % (k, " | ".join(cells)))

    # Spending the same work where the model is unsure: the TUs whose best predicted gain is
    # smallest (or whose first two predictions are closest) get more candidates, the others
    # fewer, three a TU on average. If certainty told where the oracle hides, this would beat
    # three everywhere.
    w("\n## Candidates spread by the model's certainty (no budget)\n")
    w("Fixed: K candidates on every TU (first choice + the next in column order). Spread: the "
      "share of TUs the model is least sure of (smallest predicted best gain, or smallest gap "
      "between its first two predictions) gets HI candidates, the rest LO; 3 a TU on average.\n")
    w("| rule | candidates a TU | " + " | ".join(s for s, _ in splits) + " |")
    w("|" + "---|" * (2 + len(splits)))
    for k in (1, 2, 3, 4, 5, 6, 8):
        w("| fixed %d | %d | %s |" % (k, k, " | ".join(
            cell(s, geo(rows, lambda r, k=k: shipped(r, k))) for s, rows in splits)))

    def certainty(r, how):
        sc = sorted(r["scores"], reverse=True)
        return sc[0] if how == "top" else sc[0] - sc[1]

    for how, label in (("top", "smallest predicted best gain"), ("gap", "closest first two")):
        for lo, hi in ((2, 4), (2, 5), (1, 5)):
            frac = (3.0 - lo) / (hi - lo)
            cells = []
            for s, rows in splits:
                order = sorted(range(len(rows)), key=lambda i: certainty(rows[i], how))
                unsure = set(order[:round(frac * len(rows))])
                ks = [hi if i in unsure else lo for i in range(len(rows))]
                g = math.exp(sum(gain(r, shipped(r, k)) for r, k in zip(rows, ks)) / len(rows))
                cells.append(cell(s, g))
            w("| spread %d / %d: %d to the %.0f %% with the %s | 3 on average | %s |" % (
                lo, hi, hi, 100 * frac, label, " | ".join(cells)))

    w("\n## Where the regret is (shipped effort 1 against the oracle, per TU)\n")
    bins = [(0, 0.0025), (0.0025, 0.005), (0.005, 0.01), (0.01, 0.02), (0.02, 0.05), (0.05, 9)]
    w("| regret | " + " | ".join("%s: TUs, share of the split's regret" % s for s, _ in splits) + " |")
    w("|" + "---|" * (1 + len(splits)))
    regrets = {s: [gain(r, range(K)) - gain(r, shipped(r)) for r in rows] for s, rows in splits}
    w("| none | " + " | ".join("%d" % sum(1 for x in regrets[s] if x <= 0) for s, _ in splits) + " |")
    for lo, hi in bins:
        cells = []
        for s, _ in splits:
            sel = [x for x in regrets[s] if lo < x <= hi]
            total = sum(regrets[s]) or 1.0
            cells.append("%d, %.0f %%" % (len(sel), 100 * sum(sel) / total))
        label = "> %.1f %%" % (100 * lo) if hi > 1 else "%.2f-%.2f %%" % (100 * lo, 100 * hi)
        w("| %s | %s |" % (label, " | ".join(cells)))

    # Single trial: the first choice alone, before clang's fallback. Can it win more often than
    # it loses without giving up bytes? The per-TU vote: among the nearest training TUs, did the
    # model's first choice or the sequence that wins most often (minus losses) on train do
    # better on average? The vote's pick is then the first choice, also in effort 1.
    def net_wins(j):
        return sum((1 if r["vals"][j] and r["vals"][j] < r["clang"] else 0) -
                   (1 if not r["vals"][j] or r["vals"][j] > r["clang"] else 0) for r in train)
    safe = max(range(K), key=net_wins)

    def voted_first(r):
        f = first_choice(r)
        if f == safe:
            return f
        near = st.near_in_observation(r)
        diff = sum(single(st.train[i], f) - single(st.train[i], safe) for i in near)
        return f if diff >= 0 else safe

    w("\n## Single trial (the first choice alone, before the fallback)\n")
    w("The safe sequence: %d, `%s` (wins minus losses on train %+d).\n" % (safe, names[safe],
                                                                         net_wins(safe)))
    w("| first choice | " + " | ".join("%s: won / lost, first choice after the fallback, effort 1"
                                        % s for s, _ in splits) + " |")
    w("|" + "---|" * (1 + len(splits)))
    for title, first in (("the model's", first_choice), ("the safe sequence", lambda r: safe),
                         ("per TU: the model's or the safe one, by the %d nearest" % a.knn,
                          voted_first)):
        cells = []
        for s, rows in splits:
            picks = [first(r) for r in rows]
            won = sum(1 for r, j in zip(rows, picks) if r["vals"][j] and r["vals"][j] < r["clang"])
            lost = sum(1 for r, j in zip(rows, picks) if not r["vals"][j] or r["vals"][j] > r["clang"])
            top1 = math.exp(sum(gain(r, [j]) for r, j in zip(rows, picks)) / len(rows))
            e1 = math.exp(sum(gain(r, [j] + [i for i in range(K) if i != j][:2])
                              for r, j in zip(rows, picks)) / len(rows))
            cells.append("%d / %d, %.4f, %.4f" % (won, lost, top1, e1))
        w("| %s | %s |" % (title, " | ".join(cells)))

    w("\n## Rank correlation of predicted and measured gains (mean Spearman per TU)\n")
    raw_prior = [sum(single(r, j) for r in train) / len(train) for j in range(K)]
    w("| ranking | " + " | ".join(s for s, _ in splits) + " |")
    w("|" + "---|" * (1 + len(splits)))
    for title, pred in (("the model", lambda r: r["scores"]),
                        ("constant: each sequence's mean gain on train", lambda r: raw_prior)):
        w("| %s | %s |" % (title, " | ".join("%.2f" % mean_spearman(rows, pred)
                                              for _, rows in splits)))
    text = "\n".join(out) + "\n"
    if a.out:
        open(a.out, "w").write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
