#!/usr/bin/env python3
"""link-candidates-report.py: what each link candidate does on its own, from decision logs.

    python3 scripts/link-candidates-report.py LOG [LOG...] [--config x86_64-lto] [--markdown]
    python3 scripts/link-candidates-report.py LOG [LOG...] --order N

LOG: smartcc decision logs (JSON lines; folders are searched for *.jsonl), e.g. a link-bench
run's OUT/logs or harvest-corpus.py --lto's <root>/links-train. Only "kind":"link" lines count,
and a candidate is judged on the links where it was measured, so run the builds with
SMARTCC_LINK_TIME=0 (every candidate of every link measured) for a fair table.

Per candidate (library candidates by name, the agent's by their sequence): links measured,
image bytes against clang's link over those links before any fallback (a ratio above 1 means
smaller), the geomean over links before fallback and never worse (clang's link kept when not
strictly smaller, as smartcc ships), how many links it makes smaller or larger, and on how
many it is the best of all. The last row is the oracle: the best shippable candidate of each
link. Candidates refused by a ship rule count as not smaller (see shippable()).

--order N: the order for default_link_candidates (policies/candidates.toml). Greedily, each
next candidate is the one that adds most to the never-worse best-of so far in total image
bytes (--by geomean: in the geomean over links, which one large link cannot dominate);
printed with the running total and geomean. Logs of several runs over the same builds
(the same log file name and output, e.g. two --link-candidates studies) are merged per link,
each candidate judged against its own run's clang link; only links where every candidate was
measured count. Python 3 standard library only.
"""
import argparse
import glob
import json
import math
import os
import sys


def lines(paths, config):
    for p in paths:
        files = sorted(glob.glob(os.path.join(p, "**", "*.jsonl"), recursive=True)) \
            if os.path.isdir(p) else [p]
        for f in files:
            if config and config not in os.path.basename(f):
                continue
            with open(f) as fh:
                for line in fh:
                    try:
                        r = json.loads(line)
                    except json.JSONDecodeError:
                        continue
                    if r.get("kind") == "link" and (r.get("baseline") or {}).get("image_bytes"):
                        r["_file"] = os.path.basename(f)
                        yield r


def shippable(c, base):
    """No ship rule refused it. Logs of smartcc before the .relro_padding fix refused links for
    "RAM growth" that was lld's page padding: such a refusal counts only if .data grew."""
    why = c.get("rejected")
    return not why or (why == "ram_growth" and c.get("data_bytes", 0) <= base.get("data_bytes", 0))


def name_of(c):
    if c["name"].startswith("agent#"):
        return "agent: " + (c.get("sequence") or "?")
    return c["name"]


def greedy_order(logs, config, n, by_geomean=False):
    # link -> candidate -> its image as a fraction of its own run's clang link (never worse)
    links, base = {}, {}
    for r in lines(logs, config):
        key = (r.get("_file"), os.path.basename(r.get("output", "")))
        b = r["baseline"]["image_bytes"]
        base.setdefault(key, b)
        for c in r.get("candidates", []):
            if c["name"].startswith("agent#"):
                continue
            ok = c.get("outcome") == "ok" and c.get("image_bytes")
            v = c["image_bytes"] if ok else b
            links.setdefault(key, {})[c["name"]] = min(1.0, v / b) if shippable(c, r["baseline"]) else 1.0
    names = sorted({c for m in links.values() for c in m})
    keys = [k for k in links if all(c in links[k] for c in names)]
    if not keys:
        sys.exit("link-candidates-report: no link measured every candidate")
    total = sum(base[k] for k in keys)

    def score(chosen):
        best = [min([1.0] + [links[k][c] for c in chosen]) for k in keys]
        return (total / sum(base[k] * f for k, f in zip(keys, best)),
                math.exp(-sum(math.log(f) for f in best) / len(keys)))

    print("%d links measured by all %d candidates, clang's images %d bytes" % (
        len(keys), len(names), total))
    print("%-4s %-40s %8s %8s" % ("step", "candidate", "total", "geomean"))
    chosen = []
    for step in range(min(n, len(names))):
        pick = max((c for c in names if c not in chosen),
                   key=lambda c: score(chosen + [c])[1 if by_geomean else 0])
        chosen.append(pick)
        print("%-4d %-40s %8.4f %8.4f" % ((step + 1, pick) + score(chosen)))
    print("%-4s %-40s %8.4f %8.4f" % (("all", "(every candidate)") + score(names)))
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--config", default="", help="only log files whose name contains this")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--order", type=int, default=0, metavar="N",
                    help="print a greedy order of N library candidates instead of the table")
    ap.add_argument("--by", choices=("total", "geomean"), default="total",
                    help="--order's criterion: total image bytes, or the geomean over links")
    a = ap.parse_args(argv)
    if a.order:
        return greedy_order(a.logs, a.config, a.order, a.by == "geomean")

    stats, oracle = {}, {"n": 0, "base": 0, "best": 0, "log": 0.0, "wins": 0}
    for r in lines(a.logs, a.config):
        base = r["baseline"]["image_bytes"]
        best = base
        for c in r.get("candidates", []):
            if c.get("outcome") != "ok" or not c.get("image_bytes"):
                continue
            v = c["image_bytes"]
            s = stats.setdefault(name_of(c), {"n": 0, "base": 0, "cand": 0, "raw": 0.0,
                                              "safe": 0.0, "smaller": 0, "larger": 0, "best": 0})
            s["n"] += 1
            s["base"] += base
            s["cand"] += v
            s["raw"] += math.log(base / v)
            ships = v < base and shippable(c, r["baseline"])
            s["safe"] += math.log(base / v) if ships else 0.0
            s["smaller"] += ships
            s["larger"] += v > base
            if ships:
                best = min(best, v)
        for c in r.get("candidates", []):
            if c.get("outcome") == "ok" and c.get("image_bytes") == best and best < base \
                    and shippable(c, r["baseline"]):
                stats[name_of(c)]["best"] += 1
        oracle["n"] += 1
        oracle["base"] += base
        oracle["best"] += best
        oracle["log"] += math.log(base / best)
        oracle["wins"] += best < base
    if not oracle["n"]:
        sys.exit("link-candidates-report: no owned link in " + " ".join(a.logs))

    rows = []
    for name, s in sorted(stats.items(), key=lambda kv: -kv[1]["safe"] / max(1, kv[1]["n"])):
        rows.append((name, s["n"], "%.4f" % (s["base"] / s["cand"]),
                     "%.4f" % math.exp(s["raw"] / s["n"]), "%.4f" % math.exp(s["safe"] / s["n"]),
                     s["smaller"], s["larger"], s["best"]))
    rows.append(("oracle (best shippable per link)", oracle["n"],
                 "%.4f" % (oracle["base"] / oracle["best"]), "-",
                 "%.4f" % math.exp(oracle["log"] / oracle["n"]), oracle["wins"], 0, "-"))
    head = ("candidate", "links", "total", "geomean", "never worse", "smaller", "larger", "best")
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(str(x) for x in r) + " |")
    else:
        print("%-72s %5s %7s %8s %11s %7s %6s %4s" % head)
        for r in rows:
            print("%-72s %5s %7s %8s %11s %7s %6s %4s" % tuple(str(x)[:72] for x in r))
    print("\n%d links; clang's images %d bytes, the oracle's %d" % (
        oracle["n"], oracle["base"], oracle["best"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
