#!/usr/bin/env python3
"""run-as.py PROGRAM NAME ARGS...: runs PROGRAM with argv[0] set to PROGRAM's directory plus
NAME, so clang behaves (mode, target, diagnostic prefix) as if installed under NAME."""
import os, sys

prog, name = sys.argv[1], sys.argv[2]
os.execv(prog, [os.path.join(os.path.dirname(prog), name)] + sys.argv[3:])
