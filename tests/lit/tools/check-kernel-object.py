#!/usr/bin/env python3
"""check-kernel-object.py OBJDUMP --functions F1,F2,... OBJECT-OR-GLOB...: checks that AArch64 objects
compiled with a kernel's code-generation flags obey them in every function, outlined ones
included: no x18 (-ffixed-x18: the kernel's shadow call stack), no floating-point or SIMD
register (-mgeneral-regs-only: the kernel does not save them on entry); and that each named
function (the source's own) starts with its two patchable NOPs (-fpatchable-function-entry=2:
ftrace) and signs its return address (-mbranch-protection=pac-ret+leaf: paciasp, even in
leaves). Prints one line per object; exits 1 on any violation."""
import glob, re, subprocess, sys

FUNC = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSN = re.compile(r"^\s*[0-9a-f]+:\s+(?:[0-9a-f]{8}\s+)?(\S+)\s*(.*)$")
X18 = re.compile(r"\b[xw]18\b")
FPSIMD = re.compile(r"\b(?:[qdshb]\d{1,2}|v\d{1,2}\.\w+|v\d{1,2})\b")


def check(objdump, path, named):
    with open(path, "rb") as f:
        if f.read(4) != b"\x7fELF":  # a saved pre-link bitcode file: no machine code
            print(f"{path}: not an object, skipped")
            return True
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", path], capture_output=True,
                         text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        m = INSN.match(line)
        if m and cur is not None:
            funcs[cur].append((m.group(1), m.group(2).split("//")[0]))
    bad = []
    for f, insns in funcs.items():
        for op, args in insns:
            if X18.search(args):
                bad.append(f"{f}: uses x18: {op} {args}")
            if FPSIMD.search(args):
                bad.append(f"{f}: FP/SIMD register: {op} {args}")
    for f in named:
        insns = funcs.get(f)
        if insns is None:
            continue  # inlined away or merged: nothing to patch
        if [op for op, _ in insns[:2]] != ["nop", "nop"]:
            bad.append(f"{f}: does not start with two patchable NOPs")
        if not any(op in ("paciasp", "pacibsp") for op, _ in insns):
            bad.append(f"{f}: does not sign its return address")
    sections = subprocess.run([objdump, "-h", path], capture_output=True, text=True).stdout
    if any(f in funcs for f in named) and "__patchable_function_entries" not in sections:
        bad.append("no __patchable_function_entries section")
    print(f"{path}: {len(funcs)} functions, " + ("ok" if not bad else f"{len(bad)} violations"))
    for b in bad:
        print("  " + b)
    return not bad


def main():
    objdump = sys.argv[1]
    assert sys.argv[2] == "--functions"
    named = sys.argv[3].split(",")
    # Globs expanded here: lit's internal shell passes them as written.
    paths = [p for a in sys.argv[4:] for p in (sorted(glob.glob(a)) if "*" in a else [a])]
    ok = all([check(objdump, p, named) for p in paths])
    sys.exit(0 if ok and paths else 1)


if __name__ == "__main__":
    main()
