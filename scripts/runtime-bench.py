#!/usr/bin/env python3
"""runtime-bench.py: run time and build time of real programs built by smartcc, as ratios to
clang-22 in the same run.

  python3 scripts/runtime-bench.py --out DIR [--bin build/bin] [--runs 9]
      [--flags -O2] [--env SMARTCC_REGALLOC=ml] [--packages bzip2 zlib libjpeg-turbo xz-utils]

For each package (Debian source, upstream code without Debian's patches) it builds the
package's programs twice from fresh copies, with clang-22 and with smartcc (the --env settings
apply to smartcc's build only), at the same flags. Then it runs each workload alternately with
the two builds (clang, smartcc, clang, smartcc, ...), --runs times each, checks that both
builds give the same output, and reports the ratio of the median CPU times (user + system of the
child: steadier than wall time on a shared machine), smartcc / clang (below 1 = faster).
A short program is run several times per sample (as many as make clang's build take at least
--min-sample seconds), so that every sample is long enough to time. Noise: the same ratio
between the clang runs of odd and even rounds, which should be 1.
Build time: the wall and CPU times of the two builds, smartcc / clang.

The packages are the reserved evaluation packages (shared/reserved-for-evaluation.txt): they
are for measuring, never for training. Sources come from the harvest's cache
(~/.cache/smartcc/corpus/src-cache) or `apt-get source --download-only`.
Output: DIR/runtime.md (Markdown) and DIR/runtime.json.
"""
import argparse
import glob
import json
import os
import random
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANG = "/usr/lib/llvm-22/bin/clang"
CACHES = [os.path.expanduser("~/.cache/smartcc/corpus/src-cache"),
          os.path.expanduser("~/.cache/smartcc/debian-src")]

# package -> (build steps with {cc} {cflags} {jobs}, {name: program path}, workloads)
# A workload is (name, program, argv with {in} placeholders, input kind).
PACKAGES = {
    "bzip2": {
        "steps": [["make", "-j{jobs}", "CC={cc}", "CFLAGS={cflags} -D_FILE_OFFSET_BITS=64",
                   "bzip2"]],
        "workloads": [("compress -9", "bzip2", ["-9", "-c", "{text}"]),
                      ("decompress", "bzip2", ["-d", "-c", "{text.bz2}"])],
    },
    "zlib": {
        "env": True,
        "steps": [["./configure", "--static"], ["make", "-j{jobs}", "minigzip"]],
        "workloads": [("compress -9", "minigzip", ["-9", "-c", "{text}"]),
                      ("decompress", "minigzip", ["-d", "-c", "{text.gz}"])],
    },
    "libjpeg-turbo": {
        "steps": [["cmake", "-G", "Ninja", "-S", ".", "-B", "b", "-DWITH_SIMD=OFF",
                   "-DENABLE_SHARED=OFF", "-DCMAKE_BUILD_TYPE=None",
                   "-DCMAKE_C_COMPILER={cc}", "-DCMAKE_C_FLAGS={cflags}"],
                  ["ninja", "-C", "b", "-j{jobs}", "cjpeg-static", "djpeg-static"]],
        "workloads": [("cjpeg q90", "b/cjpeg-static", ["-quality", "90", "{image}"]),
                      ("djpeg", "b/djpeg-static", ["{image.jpg}"])],
    },
    "xz-utils": {
        "env": True,
        "steps": [["./configure", "--disable-shared", "--disable-doc", "--disable-nls",
                   "--disable-scripts", "--disable-xzdec", "--disable-lzmadec",
                   "--disable-lzmainfo", "--disable-lzma-links", "--disable-threads"],
                  ["make", "-j{jobs}"]],
        "workloads": [("compress -6", "src/xz/xz", ["-6", "-c", "{text}"]),
                      ("decompress", "src/xz/xz", ["-d", "-c", "{text.xz}"])],
    },
}


def log(msg):
    print(msg, flush=True)


def run(argv, cwd, env=None, out=None):
    r = subprocess.run(argv, cwd=cwd, env=env, stdout=out or subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if r.returncode != 0:
        text = r.stdout.decode(errors="replace")[-3000:] if r.stdout else ""
        sys.exit("runtime-bench: %s failed in %s:\n%s" % (" ".join(argv), cwd, text))
    return r


def source(pkg, work):
    """Extracts the newest cached source of pkg into work/src (fetching it if needed)."""
    def newest():
        found = [p for d in CACHES for p in glob.glob(os.path.join(d, pkg + "_*.dsc"))]
        return max(found) if found else None
    dsc = newest()
    if not dsc:
        os.makedirs(CACHES[0], exist_ok=True)
        run(["apt-get", "source", "--download-only", "-qq", pkg], CACHES[0])
        dsc = newest()
    src = os.path.join(work, "src")
    shutil.rmtree(src, ignore_errors=True)
    run(["dpkg-source", "--skip-patches", "-x", dsc, src], work)
    return src


def build(pkg, src, dest, cc, flags, env_extra, jobs):
    """Copies src to dest and builds there; returns (wall, cpu) seconds."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(src, dest, symlinks=True)
    spec = PACKAGES[pkg]
    env = dict(os.environ, **env_extra)
    env.update(CC=cc, CFLAGS=flags, FORCE_UNSAFE_CONFIGURE="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    with open(dest + ".log", "w") as logf:
        for step in spec["steps"]:
            argv = [a.format(cc=cc, cflags=flags, jobs=jobs) for a in step]
            run(argv, dest, env, logf)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return time.time() - t0, cpu


def make_inputs(d):
    """Deterministic inputs: ~24 MB of word-like text with some numbers, a 2048x1536 PPM."""
    os.makedirs(d, exist_ok=True)
    text = os.path.join(d, "text")
    if not os.path.exists(text):
        rng = random.Random(1)
        words = ["".join(rng.choice("etaoinshrdlucmfwypvbgkjqxz") for _ in range(rng.randint(2, 9)))
                 for _ in range(5000)]
        with open(text, "w") as f:
            size = 0
            while size < 24 << 20:
                line = " ".join(rng.choice(words) for _ in range(rng.randint(4, 14)))
                if rng.random() < 0.2:
                    line += " %d.%03d" % (rng.randint(0, 99999), rng.randint(0, 999))
                f.write(line + "\n")
                size += len(line) + 1
    image = os.path.join(d, "image")
    if not os.path.exists(image):
        rng = random.Random(2)
        w, h = 2048, 1536
        rows = []
        for y in range(h):
            row = bytearray(3 * w)
            for x in range(w):
                n = rng.randint(0, 24)
                row[3 * x] = (x * 255 // w + n) & 255
                row[3 * x + 1] = (y * 255 // h + n) & 255
                row[3 * x + 2] = ((x ^ y) & 255)
            rows.append(bytes(row))
        with open(image, "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (w, h))
            f.write(b"".join(rows))
    return {"text": text, "image": image}


def timed(argv, cwd, repeat=1):
    """(cpu seconds, stdout bytes of the first run) of repeat runs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = None
    for _ in range(repeat):
        r = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            sys.exit("runtime-bench: %s failed: %s" % (" ".join(argv), r.stderr.decode()[-500:]))
        out = r.stdout if out is None else out
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "bin"))
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--flags", default="-O2")
    ap.add_argument("--env", action="append", default=[], help="VAR=VALUE for smartcc's build")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--min-sample", type=float, default=0.5,
                    help="seconds of clang's build per timed sample (short programs repeat)")
    ap.add_argument("--packages", nargs="*", default=["bzip2", "zlib", "libjpeg-turbo"])
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    env_extra = dict(e.split("=", 1) for e in a.env)
    inputs = make_inputs(os.path.join(out, "inputs"))
    smartcc = os.path.join(os.path.abspath(a.bin), "smartcc")
    results = []
    for pkg in a.packages:
        work = os.path.join(out, pkg)
        os.makedirs(work, exist_ok=True)
        src = source(pkg, work)
        log("%s: building with clang-22 and smartcc (%s %s)" % (pkg, a.flags, " ".join(a.env)))
        builds = {}
        for tool, cc, extra in (("clang", CLANG, {}), ("smartcc", smartcc, env_extra)):
            builds[tool] = (os.path.join(work, tool),) + build(
                pkg, src, os.path.join(work, tool), cc, a.flags, extra, a.jobs)
        # Derived inputs (compressed files, a JPEG) come from the clang build.
        derived = dict(inputs)
        clang_dir = builds["clang"][0]
        for _, prog, args in PACKAGES[pkg]["workloads"]:
            for arg in args:
                key = arg.strip("{}")
                if arg.startswith("{") and key not in derived:
                    base, ext = key.rsplit(".", 1)
                    first = next(w for w in PACKAGES[pkg]["workloads"]
                                 if "{%s}" % base in w[2])
                    argv = [os.path.join(clang_dir, first[1])] + [
                        derived[x.strip("{}")] if x.startswith("{") else x for x in first[2]]
                    path = os.path.join(out, "inputs", "%s.%s" % (base, ext))
                    with open(path, "wb") as f:
                        f.write(timed(argv, clang_dir)[1])
                    derived[key] = path
        for name, prog, args in PACKAGES[pkg]["workloads"]:
            argv_of = lambda d: [os.path.join(d, prog)] + [
                derived[x.strip("{}")] if x.startswith("{") else x for x in args]
            times = {"clang": [], "smartcc": []}
            outputs = {}
            once = timed(argv_of(builds["clang"][0]), builds["clang"][0])[0]
            repeat = max(1, int(-(-a.min_sample // max(once, 1e-3))))
            for i in range(a.runs):
                for tool in ("clang", "smartcc") if i % 2 == 0 else ("smartcc", "clang"):
                    t, o = timed(argv_of(builds[tool][0]), builds[tool][0], repeat)
                    times[tool].append(t)
                    outputs.setdefault(tool, o)
            same = outputs["clang"] == outputs["smartcc"]
            mc, ms = statistics.median(times["clang"]), statistics.median(times["smartcc"])
            odd, even = times["clang"][1::2], times["clang"][0::2]
            noise = statistics.median(odd) / statistics.median(even) if odd else 1.0
            row = {"package": pkg, "workload": name, "runs": a.runs, "repeat": repeat,
                   "clang_median_s": mc, "smartcc_median_s": ms, "ratio": ms / mc,
                   "noise_ratio": noise, "same_output": same,
                   "clang_build_wall_s": builds["clang"][1], "smartcc_build_wall_s": builds["smartcc"][1],
                   "clang_build_cpu_s": builds["clang"][2], "smartcc_build_cpu_s": builds["smartcc"][2]}
            results.append(row)
            log("  %-14s clang %.3f s, smartcc %.3f s: ratio %.4f (noise %.4f)%s" % (
                name, mc, ms, ms / mc, noise, "" if same else "  OUTPUT DIFFERS"))
            if not same:
                sys.exit("runtime-bench: %s %s: the two builds' outputs differ" % (pkg, name))
    with open(os.path.join(out, "runtime.json"), "w") as f:
        json.dump({"flags": a.flags, "env": a.env, "runs": a.runs, "rows": results}, f, indent=1)
    lines = ["# Run time and build time, smartcc / clang-22 (%s %s)" % (a.flags, " ".join(a.env)),
             "", "Ratio of median CPU times over %d alternating samples each (below 1 = faster; a "
             "sample repeats a short program until clang's takes %.1f s); noise = the same ratio "
             "between clang's odd and even samples; outputs compared." % (a.runs, a.min_sample),
             "", "| package | workload | runs per sample | clang s | smartcc s | run-time ratio | noise | build wall ratio | build CPU ratio |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append("| %s | %s | %d | %.3f | %.3f | %.4f | %.4f | %.2f | %.2f |" % (
            r["package"], r["workload"], r["repeat"], r["clang_median_s"], r["smartcc_median_s"], r["ratio"],
            r["noise_ratio"], r["smartcc_build_wall_s"] / r["clang_build_wall_s"],
            r["smartcc_build_cpu_s"] / max(r["clang_build_cpu_s"], 1e-9)))
    if results:
        g = statistics.geometric_mean([r["ratio"] for r in results])
        lines += ["", "Geomean run-time ratio: %.4f over %d workloads." % (g, len(results))]
    text = "\n".join(lines) + "\n"
    open(os.path.join(out, "runtime.md"), "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
