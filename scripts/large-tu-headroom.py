#!/usr/bin/env python3
"""large-tu-headroom.py ROWS_DIR [--combo NAME=METHOD,METHOD ...]

The byte-weighted headroom of smartcc-eval rows (OUT/rows/*.jsonl of `smartcc-eval`), for the
question "what do the candidates find on the large translation units, and at what time?":
bytes live in large TUs, so a per-module geomean can look like a win while the total does not
move. For each method: modules, the never-worse per-module geomean of clang/method (smartcc
ships clang's object when a method is not smaller), the byte-weighted ratio (total clang
bytes / total shipped bytes) and the time ratio (total method seconds / total clang seconds).
A combo is the per-module best of several methods (an oracle over those candidates); its time
is the sum of theirs. Ratios > 1 are smaller than clang-22 -Oz. Python 3 standard library.
"""
import argparse, collections, glob, json, math, os


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("--combo", action="append", default=[],
                    help="NAME=METHOD,METHOD: the per-module best of these methods")
    a = ap.parse_args()
    rows = collections.defaultdict(dict)  # module -> method -> row
    for f in glob.glob(os.path.join(a.rows, "*.jsonl")):
        for line in open(f):
            r = json.loads(line)
            if not r["failed"]:
                rows[r["module"]][r["method"]] = r
    methods = sorted({m for by in rows.values() for m in by}, key=lambda m: (m != "oz", m))
    combos = []
    for c in a.combo:
        name, _, parts = c.partition("=")
        combos.append((name, parts.split(",")))
    print("Modules: %d; clang-22 -Oz image bytes in total: %d" % (
        len(rows), sum(next(iter(by.values()))["clang_bytes"] for by in rows.values())))
    print()
    print("| method | modules | geomean clang/method | total clang/method | time method/clang |")
    print("|---|---|---|---|---|")

    def report(name, pick):
        n, logs, base, shipped, secs, csecs = 0, 0.0, 0, 0, 0.0, 0.0
        for by in rows.values():
            got = pick(by)
            if got is None:
                continue
            b, s = got
            ref = next(iter(by.values()))
            cb = ref["clang_bytes"]
            n += 1
            logs += math.log(cb / min(b, cb))
            base += cb
            shipped += min(b, cb)
            secs += s
            csecs += ref["clang_seconds"]
        if n:
            print("| %s | %d | %.4f | %.4f | %.2f |" % (
                name, n, math.exp(logs / n), base / shipped, secs / csecs))

    for m in methods:
        report(m, lambda by, m=m: (by[m]["bytes"], by[m]["seconds"]) if m in by else None)
    for name, parts in combos:
        def pick(by, parts=parts):
            if not all(p in by for p in parts):
                return None
            return (min(by[p]["bytes"] for p in parts), sum(by[p]["seconds"] for p in parts))
        report(name + " (best of " + ", ".join(parts) + ")", pick)


if __name__ == "__main__":
    main()
