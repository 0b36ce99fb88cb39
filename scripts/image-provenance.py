#!/usr/bin/env python3
"""Where a linked image's bytes come from: the program's own code or prebuilt libraries.

    scripts/image-provenance.py IMAGE MAP [IMAGE MAP ...]

IMAGE is an ELF executable or library linked by lld, MAP the map lld wrote for that same link
(`-Wl,-Map,FILE`; smartcc leaves links with side outputs to clang, so relink with clang-22 and
the same command to get one). Bytes are the linked-image metric's: allocated, file-backed
sections (no .bss/.tbss/NOBITS), in the classes code, rodata, data and unwind as link-bench.py
and smartcc-size count them. Each input section in the map is credited
to its origin:

  program (LTO)   the object lld's LTO produced from the program's bitcode (`*.lto.o`,
                  `*.lto.N.o`): the only bytes a link-time decision can change
  ARCHIVE.a       prebuilt archive members (libc.a, libgcc.a, ...)
  OBJECT.o        other objects on the link line (crt1.o, non-bitcode objects of the program)
  linker          sections lld makes itself (<internal>: merged strings of every input, the
                  combined .eh_frame header, GOT, relocations)

Why: an image whose bytes are mostly prebuilt libraries (a static glibc program) cannot get
much smaller from any decision over the program's bitcode; this says how much it could.
"""
import collections
import importlib.util
import os
import re
import subprocess
import sys

# The section classes are link-bench's (one rule for every script, as smartcc-size's).
_spec = importlib.util.spec_from_file_location(
    "link_bench", os.path.join(os.path.dirname(os.path.abspath(__file__)), "link-bench.py"))
link_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(link_bench)


def output_sections(image):
    """Name -> class of the image's allocated, file-backed sections (llvm-readelf's table)."""
    out = subprocess.run([link_bench.READELF, "-SW", image], check=True, capture_output=True,
                         text=True).stdout
    classes = {}
    for line in out.splitlines():
        m = link_bench.SECTION.match(line)
        if m:
            c = link_bench.section_class(m.group(1), m.group(2), m.group(4))
            if c in link_bench.CLASSES:
                classes[m.group(1)] = c
    return classes


def origin(input_name):
    if input_name.startswith("<internal>"):
        return "linker"
    path = re.sub(r":\(.*\)$", "", input_name)
    if re.search(r"\.lto(\.[^/]*)?\.o$", path) or "lto.tmp" in path:
        return "program (LTO)"
    m = re.match(r"(.*\.a)\(.*\)$", path)
    if m:
        return m.group(1).rsplit("/", 1)[-1]
    return path.rsplit("/", 1)[-1]


def attribute(image, map_file):
    """(origin, class) -> bytes, from the map's input-section lines (8 spaces deep in lld's
    `VMA LMA Size Align Out In Symbol` table) under the image's file-backed sections."""
    classes = output_sections(image)
    totals = collections.Counter()
    current = None
    for line in open(map_file, encoding="utf-8", errors="replace"):
        m = re.match(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ (.*)$", line.rstrip("\n"))
        if not m:
            continue
        rest = m.group(2)
        depth = len(rest) - len(rest.lstrip(" "))
        if depth == 0:
            current = rest.strip()
        elif depth == 8 and current in classes and ":(" in rest:
            totals[(origin(rest.strip()), classes[current])] += int(m.group(1), 16)
    return totals


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        sys.exit(__doc__)
    grand = collections.Counter()
    for image, map_file in zip(argv[0::2], argv[1::2]):
        grand.update(attribute(image, map_file))
    origins = collections.Counter()
    for (o, _), v in grand.items():
        origins[o] += v
    total = sum(origins.values())
    print("| origin | " + " | ".join(link_bench.CLASSES) + " | image bytes | share |")
    print("|---|" + "---|" * (len(link_bench.CLASSES) + 2))
    for o, v in origins.most_common():
        cells = " | ".join(f"{grand[(o, c)]:,}" for c in link_bench.CLASSES)
        print(f"| {o} | {cells} | {v:,} | {100.0 * v / total:.1f} % |")
    cells = " | ".join(f"{sum(grand[(o, c)] for o in origins):,}" for c in link_bench.CLASSES)
    print(f"| **all** | {cells} | {total:,} | 100 % |")


if __name__ == "__main__":
    main(sys.argv[1:])
