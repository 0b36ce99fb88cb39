#!/usr/bin/env python3
"""gcc-study.py: where gcc 12 -Os's x86-64 output is smaller than clang-22 -Oz's, by cause,
byte-weighted, on real translation units.

  gcc-study.py build OUT --packages a,b,c   build Debian packages (harvest-corpus.py's recipes)
                                            with a compiler wrapper that also compiles every C
                                            source with gcc -Os and clang-22 -Oz into OUT/objects
                                            (resumable: finished packages are skipped)
  gcc-study.py build OUT --smartcc BIN ...   also compiles each with smartcc per TU
  gcc-study.py report OUT [--compiler smartcc]
                                            OUT/study-clang.md (or -smartcc) and .json

Per object pair (one source, both compilers, the same flags with -Oz read as -Os for gcc):
  - section classes (smartcc-size): code, read-only data, data, unwind tables;
  - functions matched by name (gcc's clones .isra/.part/.constprop/.cold are folded into their
    origin): in both, or in one only (inlined or cloned differently);
  - in matched functions, from the disassembly: stack-relative accesses (spills, reloads and
    locals: operands on %rsp or %rbp, push and pop apart), pushes and pops, instruction count
    and mean instruction length.
Causes, each the bytes by which clang's total exceeds gcc's:
  unwind       .eh_frame
  rodata       read-only data (jump tables, constants, strings)
  data         writable data
  unmatched    code of functions only one compiler emits (inlining, cloning, outlining)
  stack        matched functions: stack-relative accesses (count difference x clang's mean
               length of such instructions)
  push-pop     matched functions: pushes and pops (callee-saved registers, -Oz's constants)
  other-insns  matched functions: the remaining instruction-count difference at clang's mean
               length
  encoding     matched functions: the rest (instruction lengths, alignment)
The build's own compiler is clang-22 (CC=clang-22 through the wrapper), so every package
builds as it does for smartcc. Never run it on ../shared/reserved-for-evaluation.txt's packages
to decide what smartcc does (harvest-corpus.py refuses them).
"""
import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
LLVM = "/usr/lib/llvm-22/bin"

WRAPPER = r'''#!/usr/bin/env python3
# gcc-study.py's compiler wrapper: the build compiles with clang-22; every C compile to an
# object is also compiled by gcc -Os and clang-22 -Oz into the study's objects folder.
import hashlib, json, os, subprocess, sys
STUDY = {study!r}
args = sys.argv[1:]
cxx = os.path.basename(sys.argv[0]).endswith("++")
rc = subprocess.call(["/usr/lib/llvm-22/bin/clang" + ("++" if cxx else "")] + args)
if rc != 0 or cxx or "-c" not in args:
    sys.exit(rc)
sources = [a for a in args if a.endswith(".c") and os.path.exists(a)]
if len(sources) != 1 or "-" in args:
    sys.exit(0)
source = os.path.abspath(sources[0])
rel = [a for a in args]
try:
    i = rel.index("-o")
    del rel[i:i + 2]
except ValueError:
    pass
key = hashlib.sha1((source + "\0" + " ".join(args)).encode()).hexdigest()[:16]
out = os.path.join(STUDY, "objects")
os.makedirs(out, exist_ok=True)
def run(cc, flags, obj):
    with open(os.devnull, "w") as null:
        return subprocess.call([cc] + flags + ["-o", obj], stderr=null) == 0
oz = ["-Oz" if a in ("-O2", "-O3", "-Os", "-O1", "-O") else a for a in rel] + ["-Oz"]
os_ = ["-Os" if a == "-Oz" else a for a in oz]
ok_clang = run("/usr/lib/llvm-22/bin/clang", oz, os.path.join(out, key + ".clang.o"))
ok_gcc = run("gcc", os_, os.path.join(out, key + ".gcc.o"))
ok_smartcc = False
if {smartcc!r}:
    env = {{k: v for k, v in os.environ.items() if not k.startswith(("SMARTCC_", "CCC_"))}}
    env.update(SMARTCC_WHOLE_PROGRAM="0", SMARTCC_FAT_OBJECTS="0")
    with open(os.devnull, "w") as null:
        ok_smartcc = subprocess.call([os.path.join({smartcc!r}, "smartcc")] + oz + ["-o",
                                     os.path.join(out, key + ".smartcc.o")], stderr=null,
                                     env=env) == 0
with open(os.path.join(STUDY, "objects.jsonl"), "a") as f:
    f.write(json.dumps({{"key": key, "package": os.environ.get("SMARTCC_HARVEST_PACKAGE", ""),
                        "source": source, "clang": ok_clang, "gcc": ok_gcc,
                        "smartcc": ok_smartcc}}) + "\n")
sys.exit(0)
'''


def build(args):
    out = os.path.abspath(args.out)
    wrap = os.path.join(out, "bin")
    os.makedirs(wrap, exist_ok=True)
    for name in ("smartcc", "smartc++"):
        path = os.path.join(wrap, name)
        with open(path, "w") as f:
            f.write(WRAPPER.format(study=out, smartcc=os.path.abspath(args.smartcc) if args.smartcc else ""))
        os.chmod(path, 0o755)
    cmd = [sys.executable, os.path.join(HERE, "harvest-corpus.py"), "--corpus",
           os.path.join(out, "corpus"), "--bin", wrap, "--manifest-dir",
           os.path.join(out, "manifests"), "--jobs", str(args.jobs),
           "--only"] + args.packages.split(",")
    print(" ".join(cmd), flush=True)
    return subprocess.call(cmd)


def classes(obj):
    r = subprocess.run([os.path.join(REPO, "build", "bin", "smartcc-size"), "--json", obj],
                       capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        return None
    return json.loads(r.stdout.splitlines()[0])


CLONE = re.compile(r"\.(isra|part|constprop|cold|lto_priv|localalias)(\.\d+)*")


def origin(name):
    return CLONE.split(name)[0]


FUNC = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSN = re.compile(r"^\s*[0-9a-f]+:\s+((?:[0-9a-f]{2} )+)\s*(\S+)?\s*(.*)$")


PUSHES = collections.Counter()  # of the object being read; report() moves them per compiler


def cfi_ops(obj):
    """DW_CFA_* instruction counts of obj's .eh_frame."""
    r = subprocess.run([os.path.join(LLVM, "llvm-dwarfdump"), "--eh-frame", obj],
                       capture_output=True, text=True)
    return collections.Counter(m.group(1) for m in re.finditer(r"^\s+(DW_CFA_\w+)", r.stdout, re.M))


def functions(obj):
    """name -> [bytes, insns, stack accesses, stack access bytes, push/pop]"""
    r = subprocess.run([os.path.join(LLVM, "llvm-objdump"), "-d", obj],
                       capture_output=True, text=True)
    out = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    cur = None
    for line in r.stdout.splitlines():
        m = FUNC.match(line)
        if m:
            cur = origin(m.group(1))
            continue
        m = INSN.match(line)
        if not m or cur is None:
            continue
        n = len(m.group(1).split())
        mnem = m.group(2) or ""
        ops = m.group(3) or ""
        f = out[cur]
        if mnem:
            f[1] += 1
        f[0] += n
        if mnem.startswith(("push", "pop")):
            f[4] += 1
            PUSHES[mnem[:4] + (" $imm" if ops.startswith("$") else " " + ops.split()[0] if ops else "")] += 1
        elif "(%rsp)" in ops or "(%rbp)" in ops:
            f[2] += 1
            f[3] += n
    return out


def report(args):
    X = args.compiler
    label = {"clang": "clang-22 -Oz", "smartcc": "smartcc -Oz, per TU"}[X]
    out = os.path.abspath(args.out)
    rows = {}
    for line in open(os.path.join(out, "objects.jsonl")):
        r = json.loads(line)
        if r.get(X) and r["gcc"]:
            rows[r["key"]] = r
    causes = collections.Counter()
    totals = {X: collections.Counter(), "gcc": collections.Counter()}
    per_package = collections.defaultdict(lambda: collections.Counter())
    stats = collections.Counter()
    pushes = {X: collections.Counter(), "gcc": collections.Counter()}
    cfi = {X: collections.Counter(), "gcc": collections.Counter()}
    for key, r in sorted(rows.items()):
        objs = {c: os.path.join(out, "objects", f"{key}.{c}.o") for c in (X, "gcc")}
        size = {c: classes(o) for c, o in objs.items()}
        if not all(size.values()):
            continue
        stats["objects"] += 1
        for c in (X, "gcc"):
            for k in ("code", "rodata", "data", "unwind", "image", "fdes"):
                totals[c][k] += size[c][k]
            per_package[r["package"]][c] += size[c]["image"]
        causes["unwind"] += size[X]["unwind"] - size["gcc"]["unwind"]
        causes["rodata"] += size[X]["rodata"] - size["gcc"]["rodata"]
        causes["data"] += size[X]["data"] - size["gcc"]["data"]
        PUSHES.clear()
        fc = functions(objs[X])
        pushes[X].update(PUSHES)
        PUSHES.clear()
        fg = functions(objs["gcc"])
        pushes["gcc"].update(PUSHES)
        for c in (X, "gcc"):
            cfi[c].update(cfi_ops(objs[c]))
        matched_code = 0
        for name in set(fc) | set(fg):
            a, b = fc.get(name), fg.get(name)
            if a is None or b is None:
                causes["unmatched"] += (a[0] if a else 0) - (b[0] if b else 0)
                stats["unmatched functions"] += 1
                continue
            stats["matched functions"] += 1
            stats["clang stack accesses"] += a[2]
            stats["gcc stack accesses"] += b[2]
            stack_len = a[3] / a[2] if a[2] else 4.5
            stack = (a[2] - b[2]) * stack_len
            pushpop = a[4] - b[4]  # one byte each, two with REX
            mean = a[0] / a[1] if a[1] else 0
            other = ((a[1] - a[2] - a[4]) - (b[1] - b[2] - b[4])) * mean
            causes["stack"] += stack
            causes["push-pop"] += pushpop * 1.5
            causes["other-insns"] += other
            causes["encoding"] += (a[0] - b[0]) - stack - pushpop * 1.5 - other
            matched_code += a[0] - b[0]
        causes["code outside functions"] += (size[X]["code"] - size["gcc"]["code"]) - \
            matched_code - sum((fc[n][0] for n in fc if n not in fg)) + \
            sum((fg[n][0] for n in fg if n not in fc))
    gap = totals[X]["image"] - totals["gcc"]["image"]
    result = {"objects": stats["objects"], "stats": dict(stats), "totals": {
        c: dict(v) for c, v in totals.items()}, "gap": gap,
        "causes": {k: round(v, 1) for k, v in causes.items()},
        "packages": {p: dict(v) for p, v in per_package.items()},
        "pushes": {c: dict(v) for c, v in pushes.items()}, "cfi": {c: dict(v) for c, v in cfi.items()}}
    with open(os.path.join(out, f"study-{X}.json"), "w") as f:
        json.dump(result, f, indent=1)
    lines = [f"# {label} against gcc 12 -Os, x86-64, by cause", "",
             f"{stats['objects']} objects of {len(per_package)} packages; image bytes: "
             f"{X} {totals[X]['image']:,}, gcc {totals['gcc']['image']:,} "
             f"({X} {100 * gap / max(1, totals['gcc']['image']):+.2f} %).", "",
             f"| class | {label} | gcc -Os | {X} - gcc |", "|---|---|---|---|"]
    for k in ("code", "rodata", "data", "unwind"):
        a, b = totals[X][k], totals["gcc"][k]
        lines.append(f"| {k} | {a:,} | {b:,} | {a - b:+,} |")
    fc_, fg_ = totals[X]["fdes"], totals["gcc"]["fdes"]
    lines += ["", f"Unwind entries (FDEs): {X} {fc_:,}, gcc {fg_:,}; bytes per entry "
              f"(.eh_frame / FDEs): {X} {totals[X]['unwind'] / max(1, fc_):.1f}, "
              f"gcc {totals['gcc']['unwind'] / max(1, fg_):.1f}. With {X}'s entries at gcc's "
              f"size the unwind gap would be "
              f"{fc_ * totals['gcc']['unwind'] / max(1, fg_) - totals['gcc']['unwind']:+,.0f} "
              f"bytes: the rest is what each entry holds (CFA adjustments for pushes and pops).",
              "", f"| cause | bytes ({X} - gcc) | share of the gap |", "|---|---|---|"]
    for k, v in sorted(causes.items(), key=lambda kv: -abs(kv[1])):
        lines.append(f"| {k} | {v:+,.0f} | {100 * v / gap if gap else 0:.1f} % |")
    lines += ["", f"Matched functions {stats['matched functions']:,}, unmatched "
              f"{stats['unmatched functions']:,}; stack-relative accesses in matched functions: "
              f"{X} {stats['clang stack accesses']:,}, gcc {stats['gcc stack accesses']:,}.",
              "", "Unwind instructions (DW_CFA_*) by kind, all objects:", "",
              f"| instruction | {label} | gcc -Os |", "|---|---|---|"]
    for k, _ in (cfi[X] + cfi["gcc"]).most_common(10):
        lines.append(f"| {k} | {cfi[X][k]:,} | {cfi['gcc'][k]:,} |")
    lines += ["", "Pushes and pops by operand (`$imm`: -Oz's small constants, `pushq $imm; popq %reg`):",
              "", f"| instruction | {label} | gcc -Os |", "|---|---|---|"]
    for k, _ in (pushes[X] + pushes["gcc"]).most_common(12):
        lines.append(f"| {k} | {pushes[X][k]:,} | {pushes['gcc'][k]:,} |")
    lines += ["", f"| package | {label} | gcc -Os | gcc / {X} |", "|---|---|---|---|"]
    for p, v in sorted(per_package.items()):
        lines.append(f"| {p} | {v[X]:,} | {v['gcc']:,} | {v['gcc'] / max(1, v[X]):.4f} |")
    with open(os.path.join(out, f"study-{X}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("out")
    b.add_argument("--packages", required=True)
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--smartcc", help="also compile with this smartcc, per TU (its bin folder)")
    r = sub.add_parser("report")
    r.add_argument("out")
    r.add_argument("--compiler", choices=["clang", "smartcc"], default="clang",
                   help="the side compared with gcc -Os (smartcc: objects of `build --smartcc`)")
    args = ap.parse_args()
    sys.exit(build(args) if args.cmd == "build" else report(args))


if __name__ == "__main__":
    main()
