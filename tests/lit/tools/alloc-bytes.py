#!/usr/bin/env python3
"""Prints the bytes of allocated (SHF_ALLOC) sections of an ELF object, read with
llvm-readelf: an independent check of what smartcc's own measurer reports."""
import os, re, subprocess, sys

total = 0
out = subprocess.run(["llvm-readelf", "-S", "--wide", sys.argv[1]], check=True,
                     capture_output=True, text=True).stdout
for line in out.splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+"
                 r"([0-9a-f]+)\s+(\S*)", line)
    if m and "A" in m.group(7):
        total += int(m.group(5), 16)
print(total)
