"""What the model-card scripts (model-card.py, regalloc-card.py, inliner-card.py) share: a
shipped model's metadata, files read leniently (a run may lack one), short digests of lists."""
import hashlib
import json


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
