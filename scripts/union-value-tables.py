#!/usr/bin/env python3
"""union-value-tables.py FIRST SECOND OUT: one value table whose core set is FIRST's sequences
followed by SECOND's that FIRST lacks, over the modules both measured (smartcc-coreset table
directories: coreset.json and table/HASH.jsonl). Both tables must have been measured by the
same build on the same split: a row whose clang -Oz bytes differ between them is dropped.

Why: a core set mined again (train-agent.sh mine) can rank better while the shipped set's fixed
columns serve effort 1 better (docs/results/core-set-remine.md); their union, with the
trainer's own column-order choice, keeps both without measuring anything again."""
import json, os, sys

def load(d):
    cs = json.load(open(os.path.join(d, "coreset.json")))
    rows = {}
    for f in os.listdir(os.path.join(d, "table")):
        with open(os.path.join(d, "table", f)) as fh:
            for line in fh:
                if line.strip():
                    r = json.loads(line)
                    rows[r["hash"]] = r
    return cs, rows

def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    first, second, out = sys.argv[1:4]
    (cf, rf), (cs, rs) = load(first), load(second)
    extra = [j for j, s in enumerate(cs["sequences"]) if s not in cf["sequences"]]
    merged = dict(cf)
    merged["sequences"] = cf["sequences"] + [cs["sequences"][j] for j in extra]
    os.makedirs(os.path.join(out, "table"), exist_ok=True)
    with open(os.path.join(out, "coreset.json"), "w") as fh:
        json.dump(merged, fh)
    kept = dropped = 0
    for h, r in sorted(rf.items()):
        q = rs.get(h)
        if q is None:
            continue
        if q["clang"] != r["clang"]:
            dropped += 1
            continue
        row = dict(r)
        row["values"] = r["values"] + [q["values"][j] for j in extra]
        with open(os.path.join(out, "table", h + ".jsonl"), "w") as fh:
            fh.write(json.dumps(row) + "\n")
        kept += 1
    print("%s: %d rows (%d dropped: clang's bytes differ), %d sequences (%d + %d)" %
          (out, kept, dropped, len(merged["sequences"]), len(cf["sequences"]), len(extra)))

if __name__ == "__main__":
    main()
