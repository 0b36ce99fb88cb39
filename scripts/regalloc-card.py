#!/usr/bin/env python3
"""regalloc-card.py TARGET RUN_DIR: prints the model card of policies/models/regalloc/TARGET.smm
from the run that produced it (scripts/train-regalloc.sh): its command, data, seed, validation
curve and, when it exists, its evaluation on the reserved packages (RUN_DIR/eval/report.md)."""
import glob
import json
import os
import sys

from card_common import PATHS_NOTE, metadata, portable, read, sha

target, d = sys.argv[1], sys.argv[2]
model = "policies/models/regalloc/%s.smm" % target
meta = metadata(model)
run = os.path.join(d, "run")


commands = [l for l in read(os.path.join(run, "command.txt")).splitlines() if l.strip()]
metrics = [json.loads(l) for l in read(os.path.join(run, "metrics.jsonl")).splitlines() if l]
val = [m for m in metrics if "validation_cost_ratio_after_fallback" in m]
v = meta.get("validation", {})
print("# Model card: regalloc/%s.smm (register-allocation policy, %s)" % (target, target))
print()
print("| | |\n|---|---|")
print("| trainer | `smartcc-train --trainer regalloc-es` (policies/train/RegAllocTraining.cpp) |")
evictions = meta.get("head_evictions", [])
growth = meta.get("regalloc_growth", 0)
print("| what it decides | %d heads rescaling the greedy allocator's priorities%s%s; the "
      "compiler allocates each function with the cheapest of LLVM's allocation and the heads', "
      "within a byte budget: the module's functions may grow in all by at most "
      "`regalloc_growth` percent of their bytes (default 1; the heads were chosen with %g) "
      "(runtime/compile/RegAllocPortfolio.h) |" % (
          meta.get("heads", 1),
          ", some with greedy allocator options" if any(meta.get("head_options", [])) else "",
          ", %d of them also taking the allocator's eviction decisions (LLVM's ML eviction "
          "advisor, served in-process)" % sum(1 for e in evictions if e) if any(evictions) else "",
          growth))
print("| inputs | %d live-range features (docs/ml-regalloc.md) |" % meta.get("input_size", 0))
print("| level | -%s (clang's optimized module at that level, codegen only) |" % meta.get("level"))
print("| data | %s training modules with a spill cost, %s validation modules: the modules "
      "of policies/models/regalloc/%s-train.txt (sha256 %s) and -validation.txt (%s), the "
      "ones of policies/models/splits/%s-*.txt the corpus held when the model was trained; "
      "split by package; the reserved packages are never used |" % (
          meta.get("train_modules"), meta.get("validation_modules"), target,
          sha("policies/models/regalloc/%s-train.txt" % target),
          sha("policies/models/regalloc/%s-validation.txt" % target), target))
print("| seed | %s |" % meta.get("seed"))
if meta.get("candidate_heads"):
    print("| how | warm start = LLVM's advisor (a zero output is LLVM's priority); %d heads chosen "
          "greedily among %d seeded random ones by their measured per-function worth on the "
          "training modules; then %d evolution-strategies iterations |" % (
              meta.get("heads", 0), meta["candidate_heads"],
              max([m.get("step", 0) for m in metrics] or [0])))
if meta.get("option_heads"):
    print("| allocator options | the candidates also included heads carrying greedy allocator "
          "options (policies/regalloc/AllocatorOptions.h): each option set on LLVM's priorities "
          "and on the first %d heads chosen among the drawn ones |" % meta["option_heads"])
    print("| options per head | %s |" % "; ".join(
        "%d: %s" % (i, " ".join(o) if o else "none")
        for i, o in enumerate(meta.get("head_options", []))))
if meta.get("eviction_heads"):
    print("| eviction candidates | %d seeded eviction scorers (perturbations of LLVM's rule: "
          "evict the lightest interference, break few hints), alternately on LLVM's priorities "
          "and on the heads chosen first among the drawn ones |" % meta["eviction_heads"])
    print("| eviction weights per head | %s |" % "; ".join(
        "%d: %s" % (i, ", ".join("%s %g" % kv for kv in sorted(e.items())) if e else "LLVM's")
        for i, e in enumerate(evictions)))
print("| kept | iteration %s of %d (best on validation) |" % (
    meta.get("iteration"), max([m.get("step", 0) for m in metrics] or [0])))
try:
    wall = os.path.getmtime(os.path.join(run, "model.smm")) - os.path.getmtime(
        os.path.join(run, "command.txt"))
    print("| wall time | %.0f min on 2 cores shared with the corpus harvest (command record to "
          "model file; optimized modules and greedy costs cached by an earlier run) |" % (wall / 60))
except OSError:
    pass
print("| size | %d bytes |" % os.path.getsize(model))
print("| command | `%s` |" % (portable(commands[-1], run) if commands else "scripts/train-regalloc.sh %s" % target))
print()
print("## Validation (spill cost x greedy's, geomean over modules, below 1 = cheaper)")
print()
print("| iteration | each function at its cheapest of greedy and the heads | heads alone (before fallback) | modules cheaper / costlier (heads alone) |")
print("|---|---|---|---|")
for m in val:
    print("| %d | %.4f | %.4f | %s / %s |" % (
        m["step"], m["validation_cost_ratio_after_fallback"], m["validation_cost_ratio"],
        m.get("validation_better", "?"), m.get("validation_worse", "?")))
report = read(os.path.join(d, "eval", "report.md"))
if report:
    print()
    print("## Evaluation on the reserved packages (never trained on)")
    print()
    start = report.find("## Register allocation")
    print(report[start:].split("\n## ")[0].split("\n", 1)[1].strip() if start >= 0 else report)
    print()
    print("`growth=1` is the compiler's default (`regalloc_growth`); the row without it is "
          "what a user who allows no growth gets.")
    print()
    print("Command: `scripts/train-regalloc.sh %s eval` (smartcc-eval --method "
          "regalloc:MODEL,growth=1 --method regalloc:MODEL --regalloc-level O2 --max-modules "
          "${EVAL_MODULES:-200} --seed 1 on policies/models/splits/%s-eval.txt)." % (target, target))

print()
print(PATHS_NOTE)
