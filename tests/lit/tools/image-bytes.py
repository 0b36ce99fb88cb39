#!/usr/bin/env python3
"""Prints the image bytes of an ELF file: the sizes of its allocated (SHF_ALLOC) sections that
are file-backed (not NOBITS: .bss and .tbss cost RAM, not image bytes), read with llvm-readelf,
an independent check of what smartcc's own measurer reports. --with-bss adds the NOBITS ones;
--linked adds, for an object, the 8 bytes per FDE the linker puts in .eh_frame_hdr (counted
with llvm-dwarfdump): smartcc's `image` metric."""
import re, subprocess, sys

args = [a for a in sys.argv[1:] if a not in ("--with-bss", "--linked")]
with_bss = "--with-bss" in sys.argv[1:]
linked = "--linked" in sys.argv[1:]
total = 0
out = subprocess.run(["llvm-readelf", "-S", "--wide", args[0]], check=True,
                     capture_output=True, text=True).stdout
for line in out.splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+"
                 r"([0-9a-f]+)\s+(\S*)", line)
    if m and "A" in m.group(7) and (with_bss or m.group(2) != "NOBITS"):
        total += int(m.group(5), 16)
if linked:
    frames = subprocess.run(["llvm-dwarfdump", "--eh-frame", args[0]], check=True,
                            capture_output=True, text=True).stdout
    total += 8 * sum(1 for l in frames.splitlines() if re.search(r"\bFDE\b", l))
print(total)
