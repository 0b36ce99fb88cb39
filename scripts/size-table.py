#!/usr/bin/env python3
"""size-table.py TITLE CLANG_DIR SMARTCC_DIR DECISIONS.jsonl CLANG.time SMARTCC.time

Prints, for every object file built in both trees, the image bytes (file-backed allocated
sections: SHF_ALLOC and not NOBITS, read with llvm-readelf) of clang-22's and smartcc's build, what smartcc shipped (from its
decision log), the totals, the geometric mean of the size ratio, and the build wall-time ratio.
"""
import json, math, os, re, subprocess, sys

READELF = os.environ.get("LLVM_READELF", "/usr/lib/llvm-22/bin/llvm-readelf")


def image_bytes(path):
    out = subprocess.run([READELF, "-S", "--wide", path], check=True, capture_output=True,
                         text=True).stdout
    total = 0
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+"
                     r"([0-9a-f]+)\s+(\S*)", line)
        if m and "A" in m.group(7) and m.group(2) != "NOBITS":  # .bss is RAM, not image
            total += int(m.group(5), 16)
    return total


def objects(root):
    found = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".o"):
                p = os.path.join(d, f)
                found[os.path.relpath(p, root)] = p
    return found


def main():
    title, clang_dir, smart_dir, log, ct, st = sys.argv[1:7]
    chosen = {}
    if os.path.exists(log):
        for line in open(log):
            d = json.loads(line)
            chosen[os.path.realpath(os.path.join(d["directory"], d["output"]))] = d["chosen"]
    a, b = objects(clang_dir), objects(smart_dir)
    rows, ratios, tc, ts = [], [], 0, 0
    for rel in sorted(set(a) & set(b)):
        c, s = image_bytes(a[rel]), image_bytes(b[rel])
        tc, ts = tc + c, ts + s
        if c and s:
            ratios.append(c / s)
        rows.append((rel, c, s, chosen.get(os.path.realpath(b[rel]), "(not optimized)")))
    width = max([len(r[0]) for r in rows] + [6])
    print(f"== {title}: image bytes per object, clang-22 -Oz vs smartcc")
    print(f"{'object':<{width}} {'clang':>9} {'smartcc':>9} {'change':>8}  shipped")
    for rel, c, s, who in rows:
        change = f"{(s - c) * 100.0 / c:+.2f}%" if c else "-"
        print(f"{rel:<{width}} {c:>9} {s:>9} {change:>8}  {who}")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else 1.0
    print(f"{'TOTAL':<{width}} {tc:>9} {ts:>9} {((ts - tc) * 100.0 / tc if tc else 0):+.2f}%")
    won = sum(1 for r in rows if r[3] not in ("baseline", "(not optimized)"))
    print(f"objects: {len(rows)}, candidate shipped: {won}, geomean clang/smartcc: {geo:.4f}")
    (c0, c1, *ccpu), (s0, s1, *scpu) = [list(map(float, open(p).read().split()))
                                        for p in (ct, st)]
    print(f"build wall time: clang {c1 - c0:.2f} s, smartcc {s1 - s0:.2f} s, "
          f"ratio {(s1 - s0) / (c1 - c0):.2f}")
    if ccpu and scpu:
        print(f"build CPU time: clang {ccpu[0]:.2f} s, smartcc {scpu[0]:.2f} s, "
              f"ratio {scpu[0] / ccpu[0]:.2f}")


main()
