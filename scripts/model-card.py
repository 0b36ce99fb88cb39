#!/usr/bin/env python3
"""model-card.py TARGET AGENT_DIR: prints the model card of policies/models/TARGET.smm from the
run that produced it (its command, data, split, seed, validation figures) and, when it exists,
its evaluation on the reserved packages (AGENT_DIR/eval/report.md)."""
import json, os, subprocess, sys

from card_common import PATHS_NOTE, metadata, portable, sha

target, d = sys.argv[1], sys.argv[2]
model = "policies/models/%s.smm" % target
meta = metadata(model)
run = os.path.join(d, "run")
commands = open(os.path.join(run, "command.txt")).read().strip().splitlines()
metrics = [json.loads(l) for l in open(os.path.join(run, "metrics.jsonl"))]
def rows(sub):
    p = os.path.join(d, sub, "table")
    return len([f for f in os.listdir(p) if f.endswith(".jsonl")]) if os.path.isdir(p) else 0
try:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
except OSError:
    commit = "?"
v, t = meta.get("validation", {}), meta.get("train", {})
print("# Model card: %s.smm (sequence-value agent, %s)" % (target, target))
print()
print("| | |\n|---|---|")
print("| trainer | `smartcc-train --trainer value` (policies/train/SequenceValue.cpp) |")
print("| inputs / outputs | %d log-Autophase features / %d core-set sequences |" %
      (meta["input_size"], len(meta["sequences"])))
print("| action space | %s |" % meta["space"])
objective = meta.get("objective", "bytes")
print("| objective | %s |" % {
    "shipped": "`shipped`: image bytes as the compiler ships them (a sequence smaller than clang's "
               "that breaks the default ship rules counts as clang's: clang's object ships)",
    "bytes": "`bytes`: image bytes of each sequence's object, ship rules aside"}.get(
        objective, "`%s`" % objective))
print("| size | %d bytes |" % os.path.getsize(model))
print("| seed | %s |" % meta.get("seed"))
print("| epochs | %s of %d (best on validation) |" % (meta.get("epoch"), len(metrics)))
print("| training data | %d training modules, %d validation modules (value tables) |" %
      (rows("table"), rows("table-val")))
print("| split | by Debian package (harvest-corpus.py: validation iff sha256(name) % 10 == 0); "
      "reserved evaluation packages never harvested into training |")
print("| corpus manifest | policies/corpus/modules-train.jsonl sha256 %s |" %
      sha("policies/corpus/modules-train.jsonl"))
print("| source commit | %s |" % commit)
# A core set mined in this run's directory (train-agent.sh's mine stage) is part of the recipe;
# otherwise the tables were built from an earlier model's core set.
if os.path.exists(os.path.join(d, "coreset", "coreset.json")):
    mined = json.load(open(os.path.join(d, "coreset", "coreset.json"))).get("objective", "bytes")
    print("| reproduce | `%sTABLE_MODULES=1000 bash scripts/train-agent.sh %s lists mine tables "
          "train ship` (these split lists; the core set mined on the training split; `eval` adds "
          "smartcc-eval) |" % ("" if mined == "bytes" else "MINE_OBJECTIVE=%s " % mined, target))
else:
    print("| reproduce | `CORESET_FROM_MODEL=1 TABLE_MODULES=1000 bash scripts/train-agent.sh %s "
          "lists tables train ship` (this core set and split lists; `mine` mines a new core set, "
          "`eval` adds smartcc-eval) |" % target)
print()
print("Training command(s):\n")
for c in commands:
    print("    " + portable(c, run))
print()
print(PATHS_NOTE)
print()
print("Core set (output order):\n")
for i, s in enumerate(meta["sequences"]):
    print("%2d. `%s`" % (i + 1, s))
print()
print("## Figures (image bytes of the object: file-backed allocated sections and the unwind "
      "tables linking adds%s; clang-22 -Oz / chosen; never worse = -Oz kept when smaller)" %
      (", as shipped" if objective == "shipped" else ""))
print()
print("Train and validation: the value tables (each core-set sequence really compiled); the "
      "single trial is the first choice before the -Oz fallback.")
print()
print("| split | top-1 (effort 0) | effort 1 | oracle (effort 2: whole core set) | top-1 single trial | won / tied / lost |")
print("|---|---|---|---|---|---|")
splits = [("train", t), ("validation", v)]
# Models trained since 2026-11-26 (commit 8425cc9) record the prior (each sequence's mean
# training target, the fixed ranking) and the network before its shrinkage toward the prior;
# older models have neither.
if "validation_prior" in meta:
    splits += [("validation, prior alone", meta["validation_prior"]),
               ("validation, network before shrinkage", meta["validation_network"])]
for name, f in splits:
    print("| %s | %.4f | %.4f | %.4f | %.4f | %d / %d / %d |" % (
        name, f["top1"], f.get("effort1", f["top3"]), f["oracle"], f["top1_single_trial"], f["wins"], f["ties"],
        f["losses"]))
if "shrinkage" in meta:
    print()
    print("Shrinkage toward the prior (fitted on validation; 0 = the prior alone, 1 = the network): "
          "%s. Losses weighted %s in training (`negative_gain_weight`; 0 = clipped to 0)." %
          (meta["shrinkage"], meta.get("negative_gain_weight", 0)))
def eval_section(rep):
    """The eval report's method table, under the command that measured it."""
    text = open(rep).read()
    start = text.find("| method")
    prov = [l for l in text.splitlines() if l.startswith("Measured with")]
    return "\n".join(["## Evaluation on the reserved packages (never trained on): %s" % rep, ""]
                     + prov[:1] + ([""] if prov else [])
                     + [text[start:text.find("\n\n", start)]])
# The eval table (reserved packages, each core-set sequence really compiled; smartcc-train
# --score, written by train-agent.sh's ship stage) and, when the eval stage ran for this model,
# its smartcc-eval report (AGENT_DIR/eval/report.md; copied to docs/results).
score = os.path.join(d, "eval-score.txt")
if os.path.exists(score):
    lines = [l for l in open(score).read().splitlines()
             if l.startswith(("model ", "prior ", "confidence")) or l.endswith(" columns")]
    print()
    print("## Eval table (reserved packages, never trained on): `smartcc-train --score` on %s" %
          os.path.join(d, "table-eval"))
    print()
    print("Each row: the model, then its prior alone (the fixed ranking). Geomeans clang-22 -Oz / "
          "chosen image bytes, never worse.")
    print()
    for l in lines:
        print("    " + l)
rep = os.path.join(d, "eval", "report.md")
if os.path.exists(rep) and os.path.getmtime(rep) >= os.path.getmtime(model):
    print()
    print(eval_section(rep))
