#!/usr/bin/env python3
"""model-card.py TARGET AGENT_DIR: prints the model card of policies/models/TARGET.smm from the
run that produced it (its command, data, split, seed, validation figures) and, when it exists,
its evaluation on the reserved packages (AGENT_DIR/eval/report.md)."""
import json, os, subprocess, sys

from card_common import metadata, sha

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
print("| reproduce | `bash scripts/train-agent.sh %s mine tables train ship eval` |" % target)
print()
print("Training command(s):\n")
for c in commands:
    print("    " + c)
print()
print("Core set (output order):\n")
for i, s in enumerate(meta["sequences"]):
    print("%2d. `%s`" % (i + 1, s))
print()
print("## Figures (object bytes, clang-22 -Oz / chosen; never worse = -Oz kept when smaller)")
print()
print("Train and validation: the value tables (each core-set sequence really compiled); the "
      "single trial is the first choice before the -Oz fallback.")
print()
print("| split | top-1 (effort 0) | effort 1 | oracle (effort 2: whole core set) | top-1 single trial | won / tied / lost |")
print("|---|---|---|---|---|---|")
for name, f in (("train", t), ("validation", v)):
    print("| %s | %.4f | %.4f | %.4f | %.4f | %d / %d / %d |" % (
        name, f["top1"], f.get("effort1", f["top3"]), f["oracle"], f["top1_single_trial"], f["wins"], f["ties"],
        f["losses"]))
def eval_section(rep):
    """The eval report's method table, under the command that measured it."""
    text = open(rep).read()
    start = text.find("| method")
    prov = [l for l in text.splitlines() if l.startswith("Measured with")]
    return "\n".join(["## Evaluation on the reserved packages (never trained on): %s" % rep, ""]
                     + prov[:1] + ([""] if prov else [])
                     + [text[start:text.find("\n\n", start)]])
# train-agent.sh's eval stage keeps its report in docs/results.
rep = "docs/results/agent-eval-%s.md" % target
if os.path.exists(rep):
    print()
    print(eval_section(rep))
