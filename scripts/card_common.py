"""What the model-card scripts (model-card.py, regalloc-card.py, inliner-card.py) share: a
shipped model's metadata, files read leniently (a run may lack one), short digests of lists."""
import hashlib
import json
import os
import re


def metadata(model):
    """The JSON metadata line of a model in the shipped format (policies/model/ExportedModel.h)."""
    with open(model, "rb") as f:
        f.readline()
        return json.loads(f.readline())


def read(path, default=""):
    try:
        return open(path).read()
    except OSError:
        return default


def sha(path):
    try:
        return hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]
    except OSError:
        return "?"


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("SMARTCC_CORPUS_DIR") or os.path.expanduser("~/.cache/smartcc/corpus")
PATHS_NOTE = ("Paths: `$RUN` is the training run's folder, `$CORPUS` the corpus root "
              "(docs/corpus.md), `$SMARTCC_PREFIX` the smartcc install that trained it, `$DATA` "
              "any other folder of the machine that trained it; the others are relative to the "
              "repository.")


def portable(command, run):
    """A recorded command as a card prints it: no absolute path of the machine that ran it
    (the run folder, the corpus, the repository and anything else become variables)."""
    def replace(m):
        path = m.group(0)
        for root, var in ((os.path.abspath(run), "$RUN"), (CORPUS, "$CORPUS"), (REPO, "")):
            if path == root:
                return var or "."
            if path.startswith(root + "/"):
                rest = path[len(root) + 1:]
                return var + "/" + rest if var else rest
        if os.path.basename(os.path.dirname(path)) == "bin":
            return "$SMARTCC_PREFIX/bin/" + os.path.basename(path)
        if "/corpus/" in path:
            return "$CORPUS/" + path.split("/corpus/", 1)[1]
        return "$DATA/" + os.path.basename(path)
    return re.sub(r"(?<![\w$.])/[^\s'\"=,:;]+", replace, command)
