#!/usr/bin/env python3
"""map-matches-image.py NM MAP IMAGE SYMBOL...: exits 0 when lld's map file MAP gives each
SYMBOL that IMAGE defines the address IMAGE's symbol table gives it (at least one checked),
1 otherwise: the map describes that image, not another link's."""
import subprocess, sys


def main():
    nm, map_path, image, symbols = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    in_image = {}
    for line in subprocess.run([nm, image], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            in_image[parts[2]] = int(parts[0], 16)
    in_map = {}
    for line in open(map_path):
        parts = line.split()
        # lld: VMA LMA Size Align then the name (symbols are the deepest, unindented names)
        if len(parts) == 5 and parts[4] in symbols:
            try:
                in_map.setdefault(parts[4], int(parts[0], 16))
            except ValueError:
                pass
    checked = 0
    for s in symbols:
        if s not in in_image:
            continue
        checked += 1
        if in_map.get(s) != in_image[s]:
            print(f"{s}: map {in_map.get(s)!r}, image {in_image[s]:#x}")
            return 1
    print(f"{checked} symbols at the image's addresses")
    return 0 if checked else 1


if __name__ == "__main__":
    sys.exit(main())
