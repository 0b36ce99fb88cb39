#!/usr/bin/env python3
"""ir2vec-triplets.py: the IR2Vec vocabulary's training data, by LLVM's own llvm-ir2vec.

  python3 scripts/ir2vec-triplets.py --corpus ROOT --hashes TRAIN.txt --out TRAIN-TRIPLETS.txt
                                     [--split-dir train-pool] [--llvm-ir2vec PATH] [-j 2]

Runs `llvm-ir2vec triplets` on every listed module of a harvested corpus
(ROOT/SPLIT-DIR/bitcode/<h2>/<hash>.bc; lists from `harvest-corpus.py hashes --split
train|validation`) and writes their union, deduplicated and sorted, in llvm-ir2vec's format
("MAX_RELATION=N", then "head tail relation" entity ids): what
`smartcc-train --trainer ir2vec-vocab --triplets` reads. Prints how many modules, triplet lines
and distinct triplets went in; a module llvm-ir2vec fails on is named and skipped (counted).

Python 3 standard library only.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

DEFAULT_TOOL = "/usr/lib/llvm-22/bin/llvm-ir2vec"


def triplets_of(tool, path):
    r = subprocess.run([tool, "triplets", path, "-o", "-"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1:] or ["exit %d" % r.returncode]
    max_rel, out = 0, []
    for line in r.stdout.splitlines():
        if line.startswith("MAX_RELATION="):
            max_rel = max(max_rel, int(line.split("=", 1)[1]))
            continue
        parts = line.split()
        if len(parts) == 3:
            out.append((int(parts[0]), int(parts[1]), int(parts[2])))
    return (max_rel, out), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="harvested corpus root")
    ap.add_argument("--hashes", required=True, help="module hashes, one a line")
    ap.add_argument("--out", required=True)
    ap.add_argument("--split-dir", default="train-pool",
                    help="harvest directory under the root (train-pool; eval for the reserved)")
    ap.add_argument("--llvm-ir2vec", default=DEFAULT_TOOL)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    if not os.access(a.llvm_ir2vec, os.X_OK):
        sys.exit("ir2vec-triplets: error: %s not found (apt install llvm-22)" % a.llvm_ir2vec)
    with open(a.hashes) as f:
        hashes = [h.strip() for h in f if h.strip()]
    paths = [os.path.join(a.corpus, a.split_dir, "bitcode", h[:2], h + ".bc") for h in hashes]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        sys.exit("ir2vec-triplets: error: %d of %d modules are not in %s (first: %s)"
                 % (len(missing), len(paths), a.corpus, missing[0]))
    unique, lines, max_rel, failed = set(), 0, 0, 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for i, (res, err) in enumerate(pool.map(lambda p: triplets_of(a.llvm_ir2vec, p), paths)):
            if err:
                failed += 1
                print("ir2vec-triplets: %s: %s (skipped)" % (paths[i], err[0]), file=sys.stderr)
                continue
            rel, trips = res
            max_rel = max(max_rel, rel)
            lines += len(trips)
            unique.update(trips)
            if (i + 1) % 200 == 0:
                print("[%d/%d] %d distinct triplets" % (i + 1, len(paths), len(unique)),
                      flush=True)
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("MAX_RELATION=%d\n" % max_rel)
        for h, t, r in sorted(unique):
            f.write("%d %d %d\n" % (h, t, r))
    os.replace(tmp, a.out)
    print("ir2vec-triplets: %d modules (%d failed), %d triplet lines, %d distinct -> %s"
          % (len(paths) - failed, failed, lines, len(unique), a.out))
    return 1 if failed == len(paths) else 0


if __name__ == "__main__":
    sys.exit(main())
