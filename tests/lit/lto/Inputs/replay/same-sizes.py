# Compares the link candidates of two smartcc logs (JSON lines, the last line each): every
# candidate measured in both must have the same sizes. Prints one line per candidate.
import json
import sys

def candidates(path):
    line = open(path).read().splitlines()[-1]
    return {c["name"]: c for c in json.loads(line)["candidates"]}

a, b = candidates(sys.argv[1]), candidates(sys.argv[2])
bad = 0
for name in sorted(a):
    if name not in b or a[name]["outcome"] != "ok" or b[name]["outcome"] != "ok":
        print(f"{name}: not measured in both")
        bad = 1
        continue
    same = all(a[name][k] == b[name][k] for k in ("file_bytes", "image_bytes", "code_bytes"))
    print(f"{name}: {'same' if same else 'different'} {a[name]['file_bytes']} {b[name]['file_bytes']}"
          f" replayed {a[name].get('replayed', False)} {b[name].get('replayed', False)}")
    bad |= not same
sys.exit(bad)
