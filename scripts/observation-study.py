#!/usr/bin/env python3
"""observation-study.py: which observation should the sequence-value agent read? (issue 21)

  python3 scripts/observation-study.py AGENT_DIR --corpus ROOT [--bin build/bin]
                                       [--epochs 300] [--seed 1] [--variants a,i,b,b+ae]
                                       [--negative-gain-weight W] [--remine-order]

AGENT_DIR holds value tables measured by smartcc-coreset on one core set (train-agent.sh's
layout): table/ (training split), table-val/ (validation), table-eval/ (the reserved packages,
never trained on) and, for the encoder's unlabeled modules, unlabeled.txt (training-split
hashes without a table row; optional). Every variant is trained with the same tables, split
and seed (smartcc-train --trainer value; resumable: a finished run is only scored again), then
scored on the eval table (smartcc-train --score, observations re-read from ROOT/eval):

  a      autophase-log1p (the shipped agents' observation)
  i      ir2vec (smartcc's vocabulary, IR2VecEmbedding.h)
  b      autophase-log1p+ir2vec
  a+ae   autophase-log1p, hidden layers pretrained as a denoising autoencoder
  b+ae   both, with the pretrained encoder
  k-a    the kernel chooser (smartcc-train --kernel: no network, gains averaged over similar
  k-i    training modules, bandwidth fitted on validation) on autophase-log1p, ir2vec or both
  k-b

--negative-gain-weight W trains every variant on W * gain for losing sequences, --remine-order
lets the trainer re-mine the core set's order, --listwise-weight L [--listwise-temperature T]
adds the listwise ranking loss (smartcc-train's options; run directories
VARIANT[-wW][-r][-lL[tT]]-seedN). Each score also prints the model's training prior
(each sequence's mean target: the fixed ranking a model must beat), reported as a "prior" row.

Writes AGENT_DIR/observation-study[-wW]-seedN.md (one row per variant: effort-1, top-1, oracle share,
top-1 accuracy, Spearman, regret, single-trial wins/losses; validation and eval) and prints it.
Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

VARIANTS = {
    "a": ("autophase-log1p", 0),
    "i": ("ir2vec", 0),
    "b": ("autophase-log1p+ir2vec", 0),
    "a+ae": ("autophase-log1p", 200),
    "b+ae": ("autophase-log1p+ir2vec", 200),
    "k-a": ("autophase-log1p", 0),
    "k-i": ("ir2vec", 0),
    "k-b": ("autophase-log1p+ir2vec", 0),
}
FIG = re.compile(r"top-1 (?P<top1>[0-9.]+)\s+effort-1 (?P<e1>[0-9.]+)\s+top-3 (?P<top3>[0-9.]+)\s+"
                 r"oracle (?P<oracle>[0-9.]+) \((?P<share>[-0-9]+) % of it\)\s+single trial "
                 r"(?P<raw>[0-9.]+): (?P<won>\d+) won, (?P<tied>\d+) tied, (?P<lost>\d+) lost; "
                 r"top-1 accuracy (?P<acc>[0-9.]+), Spearman (?P<rho>[-0-9.]+) over (?P<rows>\d+) "
                 r"rows, mean regret (?P<regret>[-0-9.]+) %")


def run(cmd, log):
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        f.write(r.stdout)
    if r.returncode != 0:
        sys.exit("observation-study: failed (%s): see %s" % (" ".join(cmd[:3]), log))
    return r.stdout


def listwise_tag(a):
    """Run-directory suffix of the listwise loss (none without it)."""
    if not a.listwise_weight:
        return ""
    return "-l%g" % a.listwise_weight + ("t%g" % a.listwise_temperature
                                          if a.listwise_temperature != 1 else "")


def score(bin_dir, model, table, corpus, log):
    """The model's figures and its prior's (None for a model that records no prior)."""
    out = run([os.path.join(bin_dir, "smartcc-train"), "--trainer", "value", "--score", model,
               "--table", table, "--corpus", corpus], log)
    figs = {}
    for line in out.splitlines():
        m = FIG.search(line)
        if m:
            figs[line.split()[0]] = m.groupdict()
    if "model" not in figs:
        sys.exit("observation-study: cannot read the figures of %s" % model)
    return figs["model"], figs.get("prior")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--corpus", required=True, help="corpus root (train-pool/ and eval/)")
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default="a,i,b,a+ae,b+ae")
    ap.add_argument("--negative-gain-weight", type=float, default=0.0)
    ap.add_argument("--remine-order", action="store_true")
    ap.add_argument("--listwise-weight", type=float, default=0.0)
    ap.add_argument("--listwise-temperature", type=float, default=1.0)
    a = ap.parse_args()
    d = os.path.abspath(a.dir)
    train_pool, eval_dir = os.path.join(a.corpus, "train-pool"), os.path.join(a.corpus, "eval")
    log = os.path.join(d, "observation-study.log")
    rows = []
    names = [v for v in a.variants.split(",") if v]
    for k, name in enumerate(names):
        if name not in VARIANTS:
            sys.exit("observation-study: unknown variant %s (%s)" % (name, ", ".join(VARIANTS)))
        obs, pretrain = VARIANTS[name]
        w = a.negative_gain_weight
        tag = ("-w%g" % w if w else "") + ("-r" if a.remine_order else "") + listwise_tag(a)
        rdir = os.path.join(d, "runs", "%s%s-seed%d" % (name, tag, a.seed))
        cmd = [os.path.join(a.bin, "smartcc-train"), "--trainer", "value",
               "--table", os.path.join(d, "table"), "--validation-table", os.path.join(d, "table-val"),
               "--run", rdir, "--epochs", str(a.epochs), "--seed", str(a.seed),
               "--observation", obs, "--corpus", train_pool]
        if w:
            cmd += ["--negative-gain-weight", str(w)]
        if a.remine_order:
            cmd += ["--remine-order"]
        if a.listwise_weight:
            cmd += ["--listwise-weight", str(a.listwise_weight),
                    "--listwise-temperature", str(a.listwise_temperature)]
        if name.startswith("k-"):
            cmd += ["--kernel"]
        if pretrain:
            cmd += ["--pretrain-epochs", str(pretrain)]
            unl = os.path.join(d, "unlabeled.txt")
            if os.path.exists(unl):
                cmd += ["--unlabeled-hashes", unl]
        print("[%d/%d] %s: training (%s)" % (k + 1, len(names), name, obs), flush=True)
        run(cmd, log)
        model = os.path.join(rdir, "model.smm")
        val, val_prior = score(a.bin, model, os.path.join(d, "table-val"), train_pool, log)
        ev, ev_prior = score(a.bin, model, os.path.join(d, "table-eval"), eval_dir, log)
        if ev_prior and not any(r[0] == "prior" for r in rows):
            rows.insert(0, ("prior", "-", 0, val_prior, ev_prior))
        rows.append((name, obs, pretrain, val, ev))
        print("    eval effort-1 %s, oracle share %s %%, Spearman %s" % (ev["e1"], ev["share"],
                                                                     ev["rho"]), flush=True)
    lines = ["| variant | observation | encoder | validation effort-1 | eval effort-1 | eval top-1 | "
             "eval oracle | share of oracle | top-1 accuracy | Spearman | mean regret % | "
             "single trial won/tied/lost |", "|---" * 12 + "|"]
    for name, obs, pretrain, val, ev in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s %% | %s | %s | %s | %s/%s/%s |" % (
            name, obs if name != "prior" else "- (fixed: each sequence's mean training target)",
            "autoencoder %d epochs" % pretrain if pretrain else
            ("kernel (no network)" if name.startswith("k-") else "-"), val["e1"], ev["e1"],
            ev["top1"], ev["oracle"], ev["share"], ev["acc"], ev["rho"], ev["regret"], ev["won"],
            ev["tied"], ev["lost"]))
    text = "\n".join(lines) + "\n"
    out = "observation-study%s%s%s-seed%d.md" % (
        "-w%g" % a.negative_gain_weight if a.negative_gain_weight else "",
        "-r" if a.remine_order else "", listwise_tag(a), a.seed)
    with open(os.path.join(d, out), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
