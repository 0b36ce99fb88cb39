#!/usr/bin/env python3
"""link-tables.py: the link agent's value tables from measured -flto links.

    python3 scripts/link-tables.py LOGDIR [LOGDIR...] --out DIR [--target x86_64]
                                   [--validation-every 5 | --validation PKG,...]

Input: smartcc decision logs of owned -flto links measured at effort 2 with no link_time
limit (scripts/harvest-corpus.py --lto writes them, one PACKAGE.jsonl per package, from the
TRAINING packages only). Each "kind":"link" line has clang's link (the baseline), the agent's
observation of the program (the Autophase features summed over its bitcode modules) and every
measured candidate: the core-set sequences the agent proposed ("agent#N" with its "sequence")
and the library's link candidates (by name).

Output: DIR/train and DIR/validation, each a value table as smartcc-train --trainer value
reads it (coreset.json with the columns, table/ROW.jsonl with one link's observation, clang's
image bytes and each column's image bytes). Columns: every core-set sequence seen, then every
link candidate seen as "link:NAME". A column a link did not measure is 0 (failed), except a
sequence that is clang's own pipeline alone, which smartcc does not repeat (it is clang's
link: its bytes are clang's). A candidate refused by a ship rule is 0 too: it would not ship.
Links are split by package (sha256 of the name, every Nth package to validation), so no
program of a validation package is trained on.

The table's "kind" is link-value: smartcc-train writes it into the model, and smartcc's link
agent then knows its columns are link candidates and sequences, not a per-TU core set.
Python 3 standard library only.
"""
import argparse
import glob
import hashlib
import json
import math
import os
import sys


def package_hash(name):
    return int(hashlib.sha256(name.encode()).hexdigest(), 16)


def links(paths, target):
    """(package, decision line) of every owned link with the agent's features."""
    for d in paths:
        for f in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
            pkg = os.path.basename(f)[:-len(".jsonl")]
            with open(f) as fh:
                for line in fh:
                    try:
                        r = json.loads(line)
                    except json.JSONDecodeError:
                        continue  # a line cut by an interrupted build
                    if r.get("kind") != "link" or not r.get("target", "").startswith(target):
                        continue
                    feats = (r.get("agent") or {}).get("features")
                    base = (r.get("baseline") or {}).get("image_bytes")
                    if feats and base:
                        yield pkg, r


def column_of(c):
    if c["name"].startswith("agent#"):
        return c.get("sequence") or None
    return "link:" + c["name"]


def measured(c, base):
    """Image bytes of a candidate that could ship, else 0. A "ram_growth" refusal is judged
    again by .data alone: smartcc before the .relro_padding fix counted lld's page padding as
    .bss, which grows when code shrinks (runtime/measure/SizeMeasurer.cpp)."""
    if c.get("outcome") != "ok":
        return 0
    why = c.get("rejected")
    if why and not (why == "ram_growth" and
                    c.get("data_bytes", 0) <= base.get("data_bytes", 0)):
        return 0
    return c.get("image_bytes") or 0


def is_clangs_link(column):
    return column.split() == ["clang-default"]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+", help="folders of PACKAGE.jsonl decision logs")
    ap.add_argument("--out", required=True)
    ap.add_argument("--target", default="x86_64", help="triple prefix (default x86_64)")
    ap.add_argument("--validation-every", type=int, default=5,
                    help="every Nth package (by name hash) validates (default 5)")
    ap.add_argument("--columns-from", metavar="MODEL.smm",
                    help="the columns of this model, in its order (to score it on links it never "
                         "saw with smartcc-train --score; a column a link did not run is 0)")
    ap.add_argument("--validation", default="",
                    help="comma-separated packages that validate, instead of the hash rule")
    a = ap.parse_args(argv)

    rows, columns = [], []
    seen = set()
    for pkg, r in links(a.logs, a.target):
        for c in r.get("candidates", []):
            col = column_of(c)
            if col and col not in seen:
                seen.add(col)
                columns.append(col)
        rows.append((pkg, r))
    if not rows:
        sys.exit("link-tables: no owned link with the agent's features for %s in %s"
                 % (a.target, " ".join(a.logs)))
    # Sequences first (as the agent's core set), then the library's candidates.
    columns = [c for c in columns if not c.startswith("link:")] + \
              [c for c in columns if c.startswith("link:")]
    if a.columns_from:
        with open(a.columns_from, "rb") as f:
            f.readline()  # "SMARTCC-MODEL 1"
            columns = json.loads(f.readline())["sequences"]
    # clang's pipeline alone is never run (it is clang's link): give it a column anyway when the
    # agent's core set has it, so the model can say "nothing beats clang's link".
    if not any(is_clangs_link(c) for c in columns):
        columns.insert(0, "clang-default")

    counts = {"train": 0, "validation": 0}
    packages = {"train": set(), "validation": set()}
    for split in counts:
        os.makedirs(os.path.join(a.out, split, "table"), exist_ok=True)
        for old in glob.glob(os.path.join(a.out, split, "table", "*.jsonl")):
            os.remove(old)
    wins = {c: 0 for c in columns}
    for pkg, r in rows:
        if a.validation:
            split = "validation" if pkg in a.validation.split(",") else "train"
        else:
            split = "validation" if package_hash(pkg) % a.validation_every == 0 else "train"
        base = r["baseline"]["image_bytes"]
        values = {c: 0 for c in columns}
        for c in r.get("candidates", []):
            col = column_of(c)
            if col:
                values[col] = measured(c, r["baseline"])
        for c in columns:
            if is_clangs_link(c) and not values[c]:
                values[c] = base
        feats = r["agent"]["features"]
        key = hashlib.sha256(json.dumps([pkg, r.get("output"), feats]).encode()).hexdigest()
        row = {"hash": key, "package": pkg, "output": r.get("output"),
               "obs": [math.log1p(max(0, x)) for x in feats], "clang": base,
               "values": [values[c] for c in columns]}
        with open(os.path.join(a.out, split, "table", key[:16] + ".jsonl"), "w") as f:
            json.dump(row, f)
        counts[split] += 1
        packages[split].add(pkg)
        best = min([v for v in values.values() if v] + [base])
        for c in columns:
            if values[c] and values[c] == best and best < base:
                wins[c] += 1
    for split in counts:
        with open(os.path.join(a.out, split, "coreset.json"), "w") as f:
            json.dump({"sequences": columns, "space": "macro+options", "objective": "image",
                       "kind": "link-value", "target": a.target,
                       "packages": sorted(packages[split])}, f, indent=1)
    print("link tables: %d links (%d packages) train, %d links (%d packages) validation, "
          "%d columns" % (counts["train"], len(packages["train"]), counts["validation"],
                          len(packages["validation"]), len(columns)))
    for c in columns:
        if wins[c]:
            print("  best on %3d links: %s" % (wins[c], c))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
