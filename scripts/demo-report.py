#!/usr/bin/env python3
"""demo-report.py table SMARTCC_SIZE TARGET_DIR LABEL
   demo-report.py verdict SMARTCC_SIZE OUT_DIR

The figures scripts/demo.sh prints, all read from the builds it just made. TARGET_DIR holds one
directory per build, MODE-TOOL (MODE: oz or lto; TOOL: clang or smartcc), each with the linked
jt and libjt.so, time.txt (start, end, CPU seconds of the build and all it ran) and, for
smartcc, decisions.jsonl (SMARTCC_LOG). `table` prints the installed images by section class
(smartcc-size) for one target, with what smartcc chose and the build CPU ratio; `verdict`
prints the one-line summary over every target in OUT_DIR.
"""
import json, os, subprocess, sys

FILES = ["jt", "libjt.so"]
CLASSES = ["code", "rodata", "data", "unwind"]
MODES = [("oz", "-Oz"), ("lto", "-Oz -flto")]
TARGETS = [("x86_64-linux-gnu", "x86-64"), ("aarch64-linux-gnu", "AArch64")]


def sizes(size_tool, build):
    out = subprocess.run([size_tool, "--json"] + [os.path.join(build, f) for f in FILES],
                         check=True, capture_output=True, text=True).stdout
    return {os.path.basename(d["file"]): d for d in map(json.loads, out.splitlines())}


def total(per_file, key):
    return sum(per_file[f][key] for f in FILES)


def cpu(build):
    return float(open(os.path.join(build, "time.txt")).read().split()[2])


def change(clang, smart):
    """'-1.80 %' style: negative is smaller."""
    return f"{(smart - clang) * 100.0 / clang:+.2f} %"


def words(clang, smart, than=""):
    """The change in words, rounded for a sentence: '1.8 % smaller [than X]', 'the same size
    [as X]'."""
    if smart == clang:
        return "the same size" + (f" as {than}" if than else "")
    pct = abs(smart - clang) * 100.0 / clang
    text = f"{pct:.1f}" if pct >= 0.1 else f"{pct:.2f}"
    text += f" % {'smaller' if smart < clang else 'larger'}"
    return text + (f" than {than}" if than else "")


def chosen(build):
    """What smartcc shipped: per-file candidates counted, links named."""
    log = os.path.join(build, "decisions.jsonl")
    files = won = 0
    links = []
    if os.path.exists(log):
        for line in open(log):
            d = json.loads(line)
            if d.get("kind") == "link":
                who = d["chosen"] if d["chosen"] != "baseline" else "clang's link"
                saved = f", {d['saved']} bytes saved" if d.get("saved") else ""
                links.append(f"{d['output']}: {who}{saved}")
            else:
                files += 1
                won += d["chosen"] != "baseline"
    parts = []
    if files:
        parts.append(f"a candidate's object for {won} of {files} files, clang's own for the rest")
    parts += links
    return "; ".join(parts) if parts else "nothing recorded"


def table(size_tool, tdir, label):
    print(f"-- {label}: installed images by section class, bytes (smartcc-size: "
          "image = code + rodata + data + unwind; .bss is RAM only)")
    head = f"  {'build':<10} {'compiler':<9}" + "".join(f"{f:>9}" for f in FILES)
    head += f"{'image':>9}" + "".join(f"{c:>8}" for c in CLASSES) + f"{'change':>10}"
    print(head)
    for mode, flags in MODES:
        c, s = (sizes(size_tool, os.path.join(tdir, f"{mode}-{tool}"))
                for tool in ("clang", "smartcc"))
        for name, per in (("clang-22", c), ("smartcc", s)):
            row = f"  {flags if name == 'clang-22' else '':<10} {name:<9}"
            row += "".join(f"{per[f]['image']:>9}" for f in FILES)
            row += f"{total(per, 'image'):>9}" + "".join(f"{total(per, k):>8}" for k in CLASSES)
            if name == "smartcc":
                row += f"{change(total(c, 'image'), total(s, 'image')):>10}"
            print(row)
    for mode, flags in MODES:
        b = os.path.join(tdir, f"{mode}-smartcc")
        ratio = cpu(b) / cpu(os.path.join(tdir, f"{mode}-clang"))
        print(f"  {flags}: build CPU {ratio:.1f}x clang-22's; smartcc shipped {chosen(b)}")


def verdict(size_tool, out):
    got = {}
    for target, name in TARGETS:
        for mode, _ in MODES:
            c, s = (total(sizes(size_tool, os.path.join(out, target, f"{mode}-{t}")), "image")
                    for t in ("clang", "smartcc"))
            got[name, mode] = (c, s)
    (x, a) = (name for _, name in TARGETS)
    print(f"smartcc: the installed images (jt + libjt.so) are "
          f"{words(*got[x, 'oz'], than='clang-22 -Oz')} on {x} and {words(*got[a, 'oz'])} "
          f"on {a} (the same make command: per-file candidates, then whole-program links); "
          f"with -Oz -flto for both (smartcc owns the lld link), {words(*got[x, 'lto'])} and "
          f"{words(*got[a, 'lto'])}; same output (make check passed for all "
          f"{len(TARGETS) * len(MODES) * 2} builds).")


if __name__ == "__main__":
    if sys.argv[1] == "table":
        table(*sys.argv[2:5])
    else:
        verdict(*sys.argv[2:4])
