#!/usr/bin/env python3
"""inliner-card.py TARGET DIR: prints the model card of policies/models/inliner/TARGET.smm from
the run that produced it (scripts/train-inliner.sh; DIR/run): its command, data, seed, the flip
study's headroom, training and validation figures, and, when it exists, its evaluation on the
reserved packages (DIR/eval/report.md)."""
import json
import os
import sys

from card_common import PATHS_NOTE, metadata, portable, read, sha

target, d = sys.argv[1], sys.argv[2]
model = "policies/models/inliner/%s.smm" % target
meta = metadata(model)
run = os.path.join(d, "run")


commands = [l for l in read(os.path.join(run, "command.txt")).splitlines() if l.strip()]
summary = json.loads(read(os.path.join(run, "flips-summary.json"), "{}"))
form = summary.get("shipped_form", meta.get("decides", "?"))
lists = ["policies/models/inliner/%s-%s.txt" % (target, s) for s in ("train", "validation")]
count = lambda p: sum(1 for l in read(p).splitlines() if l.strip())

print("# Model card: inliner/%s.smm (ML inliner for size, %s)" % (target, target))
print()
print("| | |\n|---|---|")
print("| trainer | `smartcc-train --trainer inliner-flips` (policies/train/InlinerFlips.cpp) |")
if meta.get("decides") == "flip":
    print("| what it decides | at each call site LLVM's inliner considers in clang's -Oz "
          "pipeline, whether to reverse LLVM's heuristic (logit > 0: reverse) |")
else:
    print("| what it decides | at each call site LLVM's inliner considers in clang's -Oz "
          "pipeline, whether to inline (logit > 0) |")
print("| inputs | LLVM's %d ML-inliner features (InlineModelFeatureMaps.h), sign(x)*log(1+abs(x)), "
      "standardized |" % len(meta.get("features", [])))
print("| network | %s |" % ", ".join(
    "%s %sx%s" % (l.get("kind"), l.get("in", ""), l.get("out", "")) if l.get("kind") == "linear"
    else str(l.get("kind")) for l in meta.get("layers", [])))
print("| data | %d training modules of %s (sha256 %s), the first %s with call sites reversed "
      "one decision at a time; %d validation modules of %s (sha256 %s), 40 measured; split by "
      "package; the reserved packages are never used |" % (
          count(lists[0]), lists[0], sha(lists[0]), meta.get("flip_modules"), count(lists[1]),
          lists[1], sha(lists[1])))
print("| labels | %s; each example weighted by the bytes at stake (1 + 100 x abs(log(clang bytes / "
      "flipped bytes))); classes balanced |" % (
          "reversing the heuristic helped (the flipped compile alone was smaller)"
          if form == "flip" else
          "the heuristic's answer, reversed where reversing it alone made the object smaller"))
print("| seed | 1 |")
print("| output shift | %+g, chosen among +2..-3 on the validation modules by real bytes before "
      "fallback |" % meta.get("output_shift", 0))
print("| size | %d bytes |" % os.path.getsize(model))
print("| command | `%s` |" % (portable(commands[-1], run) if commands else "scripts/train-inliner.sh %s" % target))
print()

if summary.get("train"):
    print("## Headroom of per-call-site inlining (the flip study, bytes, never worse)\n")
    print("| | modules | call sites | best single flip | every helpful flip at once | "
          "greedy accumulation | improvable modules |")
    print("|---|---|---|---|---|---|---|")
    for split in ("train", "validation"):
        h = summary.get(split, {})
        f4 = lambda x: "%.4f" % x if isinstance(x, float) else str(x)
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            split, h.get("modules"), h.get("call_sites"), f4(h.get("best_single_flip")),
            f4(h.get("helpful_flips_together")), f4(h.get("greedy_accumulation")),
            h.get("improvable_modules")))
    print()

p = summary.get("policy_" + form, {})
if p:
    print("## Training and validation (object bytes, clang -Oz / model's, geomean over modules)\n")
    print("| | modules | before fallback | never worse | smaller / larger | decisions changed |")
    print("|---|---|---|---|---|---|")
    for split in ("train", "validation"):
        f = p.get(split, {})
        n = f.get("smaller", 0) + f.get("larger", 0)
        print("| %s | %s | %.4f | %.4f | %s / %s | %s of %s |" % (
            split, "%d with call sites" % (40 if split == "validation" else meta.get("flip_modules", 0)),
            f.get("geomean", 0), f.get("never_worse", 0), f.get("smaller"), f.get("larger"),
            f.get("changed"), f.get("decisions")))
    print()

report = read(os.path.join(d, "eval", "report.md"))
if report:
    print("## Evaluation on the reserved packages (never trained on)\n")
    keep = False
    for line in report.splitlines():
        if line.startswith("| method | modules | bytes geomean"):
            keep = True
        if keep and not line.startswith("|"):
            break
        if keep:
            print(line.replace(os.path.expanduser("~"), "~"))
    print()
    keep = False
    for line in report.splitlines():
        if line.startswith("## ML inliner"):
            keep = True
            continue
        if keep and line.startswith("##"):
            break
        if keep and line.startswith("|"):
            print(line.replace(os.path.expanduser("~"), "~"))
    print()
    print("Command: `scripts/train-inliner.sh %s eval` (smartcc-eval --max-modules "
          "${EVAL_MODULES:-200} --seed 1 on policies/models/splits/%s-eval.txt; rows in "
          "%s/eval/).\n" % (target, target, d.replace(os.path.expanduser("~"), "~")))

print()
print(PATHS_NOTE)
