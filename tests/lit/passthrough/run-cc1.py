#!/usr/bin/env python3
"""run-cc1.py EXE CLANG DRIVER-ARGS...: asks CLANG for the jobs of DRIVER-ARGS (-###), takes
the single frontend job (`-cc1` or `-cc1as`) and runs it with EXE as the program, i.e.
`EXE -cc1 ...` exactly as clang's driver re-executes itself (-fno-integrated-cc1, crash
reproducers). Prints the mode used on stdout and exits with EXE's status."""
import shlex
import subprocess
import sys

exe, clang, args = sys.argv[1], sys.argv[2], sys.argv[3:]
out = subprocess.run([clang, "-###"] + args, capture_output=True, text=True)
jobs = [shlex.split(line) for line in out.stderr.splitlines() if line.startswith(" \"")]
fronts = [j for j in jobs if len(j) > 1 and j[1] in ("-cc1", "-cc1as")]
if out.returncode != 0 or len(fronts) != 1:
    sys.stderr.write("run-cc1.py: expected one -cc1/-cc1as job from clang -###:\n" + out.stderr)
    sys.exit(2)
job = fronts[0]
print("running %s %s" % (exe.rsplit("/", 1)[-1], job[1]), flush=True)
sys.exit(subprocess.run([exe] + job[1:]).returncode)
