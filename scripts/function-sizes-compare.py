#!/usr/bin/env python3
"""function-sizes-compare.py FIRST SECOND: the functions of two linked images (ELF, with their
symbol tables), matched by name with the suffixes compilers give copies (.lto_priv, .constprop,
.isra, .part, .cold, .llvm) removed, summed per name: totals, the functions only one image has
(the other inlined them), and the largest differences. Used for the whole-program comparison
with gcc -Os -flto (docs/results/gcc-study.md)."""
import collections, re, subprocess, sys
def funcs(path):
    out = subprocess.run(["/usr/lib/llvm-22/bin/llvm-nm", "-S", "--defined-only", path], capture_output=True, text=True).stdout
    d = collections.Counter()
    for l in out.splitlines():
        p = l.split()
        if len(p) != 4 or p[2] not in "tTwW": continue
        name = re.sub(r"\.(lto_priv|constprop|isra|part|cold|llvm)\.?\d*", "", p[3])
        name = re.sub(r"\.(lto_priv|constprop|isra|part|cold|llvm)\.?\d*", "", name)
        d[name] += int(p[1], 16)
    return d
a, b = funcs(sys.argv[1]), funcs(sys.argv[2])
print("total", sum(a.values()), sum(b.values()))
common = set(a) & set(b)
print("common", len(common), sum(a[n] for n in common), sum(b[n] for n in common))
print("only-first", len(set(a)-set(b)), sum(a[n] for n in set(a)-set(b)))
print("only-second", len(set(b)-set(a)), sum(b[n] for n in set(b)-set(a)))
diffs = sorted(common, key=lambda n: b[n]-a[n])
print("largest second-larger:")
for n in diffs[::-1][:15]: print(f"  {n:40s} {a[n]:6d} {b[n]:6d} {b[n]-a[n]:+6d}")
print("largest second-smaller:")
for n in diffs[:8]: print(f"  {n:40s} {a[n]:6d} {b[n]:6d} {b[n]-a[n]:+6d}")
print("only-second top:", sorted(((b[n],n) for n in set(b)-set(a)), reverse=True)[:10])
print("only-first top:", sorted(((a[n],n) for n in set(a)-set(b)), reverse=True)[:10])
