#!/usr/bin/env python3
"""Is agent B's effort 1 better than agent A's beyond the split's noise? (issue 21)

Validation splits are small (73 x86-64, 94 AArch64 modules): a 0.1 % difference in geomean is
within what one TU can move. This compares two (value table, model predictions) pairs on the
TUs both measured, as the compiler ships: each TU's effort-1 gain (the model's first choice
and the first two others in its column order, clang's object where all are larger) under A
and under B, the geomeans, per-TU wins and losses, and a paired bootstrap interval of B's
geomean over A's. The two tables may hold different core sets (a re-mined set against the
shipped one): each model is replayed on its own table, TU by TU.

Inputs as scripts/effort1-study.py takes them: TABLE_DIR:SCORES, the scores written by
`smartcc-train --trainer value --score MODEL --table TABLE_DIR --scores-out SCORES`.

  python3 scripts/agent-compare.py --a DIR:SCORES --b DIR:SCORES [--name-a X] [--name-b Y]
      [--effort-candidates 3] [--resamples 10000] [--seed 1]
"""
import argparse, importlib.util, math, os, random, sys

_spec = importlib.util.spec_from_file_location(
    "effort1_study", os.path.join(os.path.dirname(os.path.abspath(__file__)), "effort1-study.py"))
study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(study)


def per_tu(spec, k):
    _, rows = study.load_split(spec)
    return {r["hash"]: (study.gain(r, study.shipped(r, k)), r["clang"]) for r in rows}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", required=True, help="TABLE_DIR:SCORES of the agent in use")
    ap.add_argument("--b", required=True, help="TABLE_DIR:SCORES of the challenger")
    ap.add_argument("--name-a", default="A")
    ap.add_argument("--name-b", default="B")
    ap.add_argument("--effort-candidates", type=int, default=3,
                    help="candidates per TU (effort 1: 3)")
    ap.add_argument("--resamples", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.effort_candidates < 1 or args.resamples < 100:
        sys.exit("agent-compare.py: error: --effort-candidates >= 1 and --resamples >= 100")
    a, b = per_tu(args.a, args.effort_candidates), per_tu(args.b, args.effort_candidates)
    common = sorted(set(a) & set(b))
    if not common:
        sys.exit("agent-compare.py: error: the two tables share no TU")
    # The same TU's clang object in both tables, or the tables measured different things.
    differ = [h for h in common if a[h][1] != b[h][1]]
    if differ:
        sys.exit("agent-compare.py: error: %d TUs have different clang bytes in the two tables "
                 "(first %s): not the same modules or compiler" % (len(differ), differ[0]))
    d = [b[h][0] - a[h][0] for h in common]
    n = len(d)
    mean = sum(d) / n
    rng = random.Random(args.seed)
    boot = sorted(sum(d[rng.randrange(n)] for _ in range(n)) / n for _ in range(args.resamples))
    lo, hi = boot[int(0.025 * args.resamples)], boot[int(0.975 * args.resamples) - 1]
    above = sum(1 for x in boot if x > 0) / args.resamples
    ga = math.exp(sum(a[h][0] for h in common) / n)
    gb = math.exp(sum(b[h][0] for h in common) / n)
    ta = sum(a[h][1] for h in common) / sum(a[h][1] / math.exp(a[h][0]) for h in common)
    tb = sum(b[h][1] for h in common) / sum(b[h][1] / math.exp(b[h][0]) for h in common)
    won = sum(1 for x in d if x > 1e-12)
    lost = sum(1 for x in d if x < -1e-12)
    print("%d TUs in both (%d only in %s, %d only in %s)" %
          (n, len(set(a) - set(b)), args.name_a, len(set(b) - set(a)), args.name_b))
    print("effort %d candidates, geomean: %s %.4f, %s %.4f; total bytes: %.4f, %.4f" %
          (args.effort_candidates, args.name_a, ga, args.name_b, gb, ta, tb))
    print("%s over %s per TU: %+.3f %% (95 %% bootstrap interval %+.3f %% .. %+.3f %%; "
          "above 0 in %.0f %% of %d resamples)" %
          (args.name_b, args.name_a, 100 * (math.exp(mean) - 1), 100 * (math.exp(lo) - 1),
           100 * (math.exp(hi) - 1), 100 * above, args.resamples))
    print("TUs %s better: %d, worse: %d, equal: %d" % (args.name_b, won, lost, n - won - lost))
    print("verdict: %s" % ("better beyond the noise" if lo > 0 else
                           "worse beyond the noise" if hi < 0 else "within the noise"))


if __name__ == "__main__":
    main()
