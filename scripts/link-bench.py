#!/usr/bin/env python3
"""link-bench.py: clang-22 -Oz against smartcc -Oz on real projects, judged by the LINKED image.

    scripts/link-bench.py OUT [--isa x86_64,aarch64,aarch64-fw,x86_64-lto,aarch64-lto,...]
                              [--projects a,b] [--bin DIR]
                              [--jobs N] [--force] [--report-only] [--recipes FILE] [--keep-trees]
    scripts/link-bench.py --self-test [OUT]

Every project of scripts/link-bench-projects.toml is built from its Debian source package twice
per configuration ("ISA": x86_64, aarch64, aarch64-fw = static firmware-style AArch64, and the
LTO configurations x86_64-lto, aarch64-lto, aarch64-fw-lto where smartcc owns the -flto links),
once with clang-22 and once with smartcc, with the same flags. Each build is configured, built,
installed into a DESTDIR (what is installed is what users ship) and measured; the project's own tests run
on smartcc's build (and on clang's too when they fail there, to tell a smartcc regression from a
project or emulator problem).

Size ratios are clang/smartcc (> 1: smartcc smaller); time ratios are smartcc/clang.

State: OUT/steps/PROJECT.CONFIG.COMPILER.json, one per finished step; a re-run reuses a step
whose recipe (commands, flags, compiler paths) is unchanged, --force redoes it. smartcc's
decision log and counters of the build and install phases give the TU and link decisions.
OUT/results.json, OUT/report.md and OUT/report.html are rewritten after every step. Python 3.11
standard library only.
"""
import argparse, datetime, hashlib, html, json, math, os, re, resource, shlex, shutil
import string, subprocess, sys, tempfile, time, tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CLANG = os.environ.get("SMARTCC_CLANG", "/usr/lib/llvm-22/bin/clang")
READELF = shutil.which("llvm-readelf-22") or "/usr/lib/llvm-22/bin/llvm-readelf"
STRIP = shutil.which("llvm-strip-22") or "/usr/lib/llvm-22/bin/llvm-strip"
CACHE = os.environ.get("SMARTCC_SRC_CACHE",
                       os.path.expanduser("~/.cache/smartcc/corpus/src-cache"))
CLASSES = ("code", "rodata", "data", "unwind")
COMPILERS = ("clang", "smartcc")
CONVENTION = ("Size ratios are clang/smartcc (> 1: smartcc smaller); time ratios are "
              "smartcc/clang (> 1: smartcc slower).")


# ---------------------------------------------------------------- measurement

UNWIND = re.compile(r"^(\.eh_frame|\.eh_frame_hdr|\.gcc_except_table.*|\.ARM\.exidx.*|"
                    r"\.ARM\.extab.*)$")
SECTION = re.compile(r"^\s*\[\s*\d+\]\s+(\S*)\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+"
                     r"[0-9a-f]+\s+(\S*)")


def empty_sizes():
    return {"image": 0, "code": 0, "rodata": 0, "data": 0, "bss": 0, "unwind": 0, "ram": 0}


def section_class(name, typ, flags):
    """The size class of one section (the same classes smartcc-size reports): one of CLASSES,
    "bss", or None for what takes neither image bytes nor RAM."""
    if "A" not in flags:
        return None
    if name == ".relro_padding" and typ == "NOBITS":
        return None  # lld's page padding after RELRO: not memory the program uses (SizeMeasurer.cpp)
    if typ == "NOBITS":
        return "bss"
    if "X" in flags:
        return "code"
    if UNWIND.match(name):
        return "unwind"
    return "data" if "W" in flags else "rodata"


def classify(name, typ, size, flags, acc):
    """Adds one section to the size classes."""
    c = section_class(name, typ, flags)
    if c:
        acc[c] += size


def finish(acc):
    acc["image"] = sum(acc[c] for c in CLASSES)
    acc["ram"] = acc["data"] + acc["bss"]
    return acc


def readelf_sizes(paths):
    """Fallback measurement: llvm-readelf -S --wide, for objects, executables, shared libraries
    and archives (an archive's sizes are the sum over its members)."""
    result = {}
    for i in range(0, len(paths), 100):
        chunk = paths[i:i + 100]
        out = subprocess.run([READELF, "-S", "--wide"] + chunk, capture_output=True, text=True,
                             errors="replace").stdout
        current = chunk[0] if len(chunk) == 1 else None
        for line in out.splitlines():
            if line.startswith("File: "):
                name = line[6:].strip()
                m = re.match(r"(.*)\((.*)\)$", name)
                current = m.group(1) if m and m.group(1) in chunk else name
                continue
            m = SECTION.match(line)
            if m and current is not None:
                acc = result.setdefault(current, empty_sizes())
                classify(m.group(1), m.group(2), int(m.group(3), 16), m.group(4), acc)
        for p in chunk:
            finish(result.setdefault(p, empty_sizes()))
    return result


def smartcc_size(tool, paths):
    result = {}
    for i in range(0, len(paths), 100):
        chunk = paths[i:i + 100]
        out = subprocess.run([tool, "--json"] + chunk, capture_output=True, text=True)
        if out.returncode != 0:
            return None
        for line in out.stdout.splitlines():
            if line.strip():
                d = json.loads(line)
                result[d["file"]] = {k: d.get(k, 0) for k in empty_sizes()}
    if set(result) != set(paths):
        return None
    return result


class Measurer:
    def __init__(self, bin_dir):
        tool = os.path.join(bin_dir, "smartcc-size")
        self.tool = tool if os.access(tool, os.X_OK) else None
        self.disagreements = 0
        self.method = "smartcc-size" if self.tool else "llvm-readelf fallback"

    def sizes(self, paths):
        if not paths:
            return {}
        fallback = readelf_sizes(paths)
        if self.tool:
            got = smartcc_size(self.tool, paths)
            if got is None:
                self.method = "llvm-readelf fallback (smartcc-size failed)"
                return fallback
            # Check on the first files of every call that both agree; say so if not.
            for p in paths[:3]:
                a, b = fallback[p], got[p]
                if any(a[k] != b[k] for k in empty_sizes()):
                    self.disagreements += 1
                    log(f"  note: smartcc-size and llvm-readelf disagree on {p}: {b} vs {a}")
            return got
        return fallback


def elf_kind(path):
    """'object', 'executable', 'shared', 'archive' or None (not ELF)."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return None
    if head.startswith(b"!<arch>\n"):
        return "archive"
    if not head.startswith(b"\x7fELF") or len(head) < 20:
        return None
    little = head[5] == 1
    etype = int.from_bytes(head[16:18], "little" if little else "big")
    if etype == 1:
        return "object"
    if etype == 2:
        return "executable"
    if etype == 3:  # PIE executables have an interpreter; shared libraries do not
        out = subprocess.run([READELF, "-l", "--wide", path], capture_output=True,
                             text=True).stdout
        return "executable" if "INTERP" in out else "shared"
    return None


def stripped_bytes(path):
    with tempfile.TemporaryDirectory() as d:
        copy = os.path.join(d, "f")
        shutil.copyfile(path, copy)
        if subprocess.run([STRIP, copy], capture_output=True).returncode != 0:
            return os.path.getsize(path)
        return os.path.getsize(copy)


def measure_install(destdir, measurer, raw_images=()):
    """Every ELF executable, shared library and archive the install step installed, and the
    raw images the recipe names (`raw_images`: a board's u-boot.bin or kernel Image, what its
    boot loader loads), measured by file size and kept out of the linked totals: the ELF
    they are made from is counted there, by class."""
    files, seen, copies = {}, {}, {}
    raw = {}
    for d, _, names in os.walk(destdir):
        for n in sorted(names):
            p = os.path.join(d, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            st = os.stat(p)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen[(st.st_dev, st.st_ino)] = p
            kind = elf_kind(p)
            if kind is None and os.path.relpath(p, destdir) in raw_images:
                raw[os.path.relpath(p, destdir)] = dict(empty_sizes(), kind="raw",
                                                        image=st.st_size, file_bytes=st.st_size)
                continue
            if kind in ("executable", "shared", "archive"):
                # A copy of an installed program (bzip2's bunzip2, bzcat) counts once.
                with open(p, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                if digest in seen:
                    copies.setdefault(seen[digest], []).append(p)
                    continue
                seen[digest] = p
            if kind in ("executable", "shared", "archive"):
                files[p] = kind
    sizes = measurer.sizes(sorted(files))
    out = {}
    for p, kind in files.items():
        rec = dict(sizes[p], kind=kind, file_bytes=os.path.getsize(p))
        if kind != "archive":
            rec["stripped_bytes"] = stripped_bytes(p)
        if p in copies:  # identical copies installed under other names, counted once
            rec["copies"] = [os.path.relpath(q, destdir) for q in copies[p]]
        out[os.path.relpath(p, destdir)] = rec
    out.update(raw)
    return out


def measure_objects(tree, measurer, skip=()):
    paths = []
    for d, dirs, names in os.walk(tree):
        dirs[:] = [x for x in dirs if os.path.join(d, x) not in skip]
        for n in names:
            p = os.path.join(d, n)
            if n.endswith(".o") and not os.path.islink(p) and elf_kind(p) == "object":
                paths.append(p)
    sizes = measurer.sizes(sorted(paths))
    return {os.path.relpath(p, tree): sizes[p]["image"] for p in paths}


# ---------------------------------------------------------------- sources and recipes

def log(msg):
    print(msg, flush=True)


def source_tarball(package):
    """The upstream tarball of a Debian source package, fetched with apt-get source into the
    cache when missing (the only download this tool does)."""
    def find():
        for n in sorted(os.listdir(CACHE)):
            if n.startswith(package + "_") and ".orig.tar." in n and not n.endswith(".asc"):
                return os.path.join(CACHE, n)
        return None
    os.makedirs(CACHE, exist_ok=True)
    t = find()
    if t is None:
        log(f"  apt-get source --download-only {package}")
        r = subprocess.run(["apt-get", "source", "--download-only", package], cwd=CACHE,
                           capture_output=True, text=True)
        t = find()
        if t is None:
            raise RuntimeError(f"apt-get source {package} failed: {r.stderr[-500:]}")
    return t


def extract(tarball, dest):
    """Extracts the tarball's single top directory as dest."""
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    subprocess.run(["tar", "xf", tarball, "-C", tmp], check=True)
    tops = os.listdir(tmp)
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(os.path.join(tmp, tops[0]) if len(tops) == 1 else tmp, dest)
    shutil.rmtree(tmp, ignore_errors=True)


def load_recipes(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


PHASES = ("prepare", "configure", "build", "install", "test")


def config_chain(recipes, config):
    """The configuration and the ones it is based on (`base = "NAME"`), base first."""
    chain, name = [], config
    while name:
        if name in chain or name not in recipes["configs"]:
            raise SystemExit(f"link-bench: configuration {config}: bad base {name}")
        chain.insert(0, name)
        name = recipes["configs"][name].get("base")
    return chain


def config_for(recipes, config):
    """A configuration's settings: its base's (`base = "x86_64"`), overridden key by key by its
    own; the `env` and `files` tables are merged entry by entry."""
    c = {}
    for name in config_chain(recipes, config):
        for k, v in recipes["configs"][name].items():
            if isinstance(v, dict):
                c[k] = dict(c.get(k, {}), **v)
            else:
                c[k] = v
    return c


def recipe_for(recipes, project, config):
    """The project's commands for one configuration: project keys, overridden by the
    project's [projects.P.BASE] table of each configuration it is based on, then by
    [projects.P.CONFIG] (so [projects.zlib.aarch64-fw] also applies to aarch64-fw-lto)."""
    p = recipes["projects"][project]
    r = {k: v for k, v in p.items() if not isinstance(v, dict)}
    for name in config_chain(recipes, config):
        r.update(p.get(name, {}))
    return r


def gcc_flags(flags):
    """A configuration's flags for gcc: -Oz as -Os (gcc's size level the comparison is with)."""
    return " ".join("-Os" if f == "-Oz" else f for f in flags.split())


def gcc_lto(c, prefix):
    """An -flto configuration for gcc: gcc's own LTO, gcc -Os -flto (the comparison of a
    whole-program build): its link by GNU ld with gcc's plugin (not lld, which reads no GIMPLE;
    GNU ld needs no --undefined-version), its archives by gcc-ar, gcc-ranlib and gcc-nm, which
    index GIMPLE objects (the configuration's llvm-ar index only bitcode)."""
    ld = " ".join(f for f in c.get("ldflags", "").split()
                  if f not in ("-fuse-ld=lld", "-Wl,--undefined-version"))
    ar, ranlib, nm = (shutil.which(f"{prefix}gcc-{t}") or f"{prefix}gcc-{t}"
                      for t in ("ar", "ranlib", "nm"))
    env = dict(c.get("env", {}), AR=ar, RANLIB=ranlib, NM=nm)
    files = dict(c.get("files", {}))
    if "lto-tools.cmake" in files:
        files["lto-tools.cmake"] = (f'set(CMAKE_AR {ar} CACHE FILEPATH "GIMPLE-indexing archiver")\n'
                                    f'set(CMAKE_RANLIB {ranlib} CACHE FILEPATH "GIMPLE-indexing ranlib")\n')
    return dict(c, ldflags=ld, env=env, files=files)


def step_env(recipes, config, compiler, bin_dir, jobs, work, src, destdir):
    c = config_for(recipes, config)
    target = c.get("target", "")
    tflag = f" --target={target}" if c.get("cross") else ""
    if compiler == "clang":
        cc, cxx = CLANG, CLANG + "++"
    elif compiler == "gcc":
        # gcc 12 at -Os, the size-minded user's compiler (issue: against gcc -Os): the cross gcc
        # for a cross configuration, the same flags with -Oz read as -Os.
        cc, cxx = (f"{target}-gcc", f"{target}-g++") if c.get("cross") else ("gcc", "g++")
        tflag = ""
        c = dict(c, cflags=gcc_flags(c["cflags"]), ldflags=gcc_flags(c.get("ldflags", "")),
                 opt=gcc_flags(c.get("opt", "-Oz")))
        if "-flto" in c["cflags"]:
            c = gcc_lto(c, f"{target}-" if c.get("cross") else "")
    else:
        cc, cxx = os.path.join(bin_dir, "smartcc"), os.path.join(bin_dir, "smartc++")
    env = dict(os.environ)
    for k in ("CFLAGS", "CXXFLAGS", "LDFLAGS", "CPPFLAGS", "MAKEFLAGS", "SMARTCC_LOG",
              "SMARTCC_STATS_DIR", "AR", "RANLIB", "NM", "CMAKE_TOOLCHAIN_FILE"):
        env.pop(k, None)
    v = {
        "CC": cc + tflag, "CXX": cxx + tflag, "CC_TOOL": cc, "CXX_TOOL": cxx,
        "CFLAGS": c["cflags"], "CXXFLAGS": c["cflags"], "LDFLAGS": c.get("ldflags", ""),
        "OPT": c.get("opt", "-Oz"), "TARGET": target, "HOST_ARG": c.get("host_arg", ""),
        "RUN": c.get("run", ""), "JOBS": str(jobs), "DESTDIR": destdir, "SRC": src,
        "WORK": work, "CONFIG": config, "COMPILER": compiler, "PREFIX": "/usr", "REPO": REPO,
        "FORCE_UNSAFE_CONFIGURE": "1", "LC_ALL": "C",
    }
    files = {}
    for name, text in c.get("files", {}).items():
        files[name] = os.path.join(work, name)
    v.update({k.upper().replace(".", "_").replace("-", "_") + "_FILE": f
              for k, f in files.items()})
    for k, text in c.get("env", {}).items():
        v[k] = string.Template(text).safe_substitute(v)
    env.update(v)
    for name, text in c.get("files", {}).items():
        with open(files[name], "w") as f:
            f.write(string.Template(text).safe_substitute(v))
    return env


def recipe_hash(recipes, project, config, compiler, bin_dir):
    """What a step's result depends on. Not the project's `configs` list: adding a configuration
    to a project leaves its other configurations' steps valid."""
    c = config_for(recipes, config)
    r = {k: v for k, v in recipe_for(recipes, project, config).items() if k != "configs"}
    key = json.dumps([r, c, compiler,
                      CLANG if compiler == "clang" else "gcc" if compiler == "gcc"
                      else os.path.realpath(bin_dir)],
                     sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def run_phase(cmd, cwd, env, logf, timeout):
    """Runs one phase's shell command; returns (rc, wall s, cpu s of it and its children)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    with open(logf, "a") as f:
        f.write(f"\n$ {cmd}\n")
        f.flush()
        try:
            rc = subprocess.run(["bash", "-eo", "pipefail", "-c", cmd], cwd=cwd, env=env,
                                stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = 124
            f.write(f"\n[link-bench] timed out after {timeout} s\n")
    t1 = time.time()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return rc, t1 - t0, cpu


def tail(path, n=25):
    try:
        return open(path, errors="replace").read().splitlines()[-n:]
    except OSError:
        return []


def log_lines(path):
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            try:
                yield json.loads(line)
            except ValueError:
                continue


def decision_summary(path):
    """The translation units of smartcc's decision log (the link lines are link_summary's)."""
    tus = shipped = 0
    saved = 0
    cpu_ms = 0.0
    for d in log_lines(path):
        if d.get("kind", "tu") != "tu":
            continue
        tus += 1
        if d.get("chosen", "baseline") != "baseline":
            shipped += 1
        saved += d.get("saved", 0) or 0
        cpu_ms += (d.get("agent") or {}).get("cpu_ms", 0) or 0
    return {"tus": tus, "candidate_shipped": shipped, "saved_bytes": saved,
            "agent_cpu_ms": round(cpu_ms, 1)}


def makespan(durations, jobs):
    """Wall time of smartcc's candidate links: started in order, at most `jobs` at once, the
    oldest waited for first (driver/LTOLink.cpp)."""
    active, t, nxt = [], 0.0, 0
    while nxt < len(durations) or active:
        while nxt < len(durations) and len(active) < jobs:
            active.append(t + durations[nxt])
            nxt += 1
        t = max(t, active.pop(0))
    return t


def stats_counters(bin_dir, stats_dir):
    """smartcc's counters of one phase (SMARTCC_STATS_DIR was the phase's own directory)."""
    if not os.path.isdir(stats_dir):
        return {}
    env = dict(os.environ, SMARTCC_STATS_DIR=stats_dir)
    r = subprocess.run([os.path.join(bin_dir, "smartcc"), "--smartcc-stats-json"], env=env,
                       capture_output=True, text=True)
    try:
        return json.loads(r.stdout).get("counters", {})
    except ValueError:
        return {}


def link_summary(logs, counters, jobs):
    """smartcc's owned -flto links (the log's "kind": "link" lines of the build and install
    phases) and the links it left to clang (the link.passthrough.REASON counters)."""
    s = {"owned": 0, "candidate_shipped": 0, "shipped": {}, "kept": {}, "saved_bytes": 0,
         "baseline_bytes": 0, "candidate_failures": {}, "clang_link_ms": 0.0,
         "smartcc_link_ms": 0.0, "candidate_ms": 0.0, "link_jobs": jobs, "passthrough": {},
         "by_phase": {}}
    for phase, path in logs:
        for d in log_lines(path):
            if d.get("kind") != "link":
                continue
            s["owned"] += 1
            s["by_phase"][phase] = s["by_phase"].get(phase, 0) + 1
            chosen = d.get("chosen", "baseline")
            if chosen != "baseline":
                s["candidate_shipped"] += 1
                s["shipped"][chosen] = s["shipped"].get(chosen, 0) + 1
            else:
                why = d.get("kept_reason", "?")
                s["kept"][why] = s["kept"].get(why, 0) + 1
            s["saved_bytes"] += d.get("saved", 0) or 0
            base = d.get("baseline") or {}
            s["baseline_bytes"] += base.get("value", 0) or 0
            cands = d.get("candidates") or []
            for c in cands:
                if c.get("outcome", "ok") != "ok":
                    key = f"{c.get('name')}: {c.get('outcome')}"
                    s["candidate_failures"][key] = s["candidate_failures"].get(key, 0) + 1
            ms = [c.get("ms", 0) or 0 for c in cands]
            s["clang_link_ms"] += base.get("ms", 0) or 0
            s["candidate_ms"] += sum(ms)
            # smartcc's own wall time of the link when it logs one (candidates may start
            # beside clang's link), else clang's link plus the candidates as scheduled
            s["smartcc_link_ms"] += d.get("total_ms") or \
                (base.get("ms", 0) or 0) + makespan(ms, jobs)
    for c in counters:
        for k, v in c.items():
            if k.startswith("link.passthrough."):
                r = k[len("link.passthrough."):]
                s["passthrough"][r] = s["passthrough"].get(r, 0) + v
    for k in ("clang_link_ms", "smartcc_link_ms", "candidate_ms"):
        s[k] = round(s[k], 1)
    return s


def core_id(bin_dir):
    """Which smartcc-core built a step (the binary may be rebuilt during a long run)."""
    core = os.path.join(bin_dir, "smartcc-core")
    try:
        st = os.stat(core)
        with open(core, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:12]
    except OSError:
        return None
    when = datetime.datetime.fromtimestamp(st.st_mtime).isoformat(timespec="seconds")
    return f"{digest} ({when})"


def link_jobs():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# The build tree's directory per compiler: names of the same length, since a build path can end
# up in what is installed (CMake's build-tree RUNPATH, rewritten in place at install, leaves its
# length in .dynstr: "smartcc" made libjpeg-turbo's programs 2 bytes larger than "clang" did).
WORK_TAG = {"clang": "clang", "smartcc": "smart", "gcc": "gcc"}


def run_step(args, recipes, project, config, compiler, measurer, path):
    r = recipe_for(recipes, project, config)
    name = f"{project}.{config}.{compiler}"
    work = os.path.join(args.out, "work", f"{project}.{config}.{WORK_TAG[compiler]}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    src = os.path.join(work, "src")
    destdir = os.path.join(work, "destdir")
    os.makedirs(destdir)
    logf = os.path.join(args.out, "logs", name + ".log")
    os.makedirs(os.path.dirname(logf), exist_ok=True)
    open(logf, "w").close()
    res = {"project": project, "config": config, "compiler": compiler,
           "package": r.get("package", project), "build_system": r.get("build_system", "?"),
           "recipe_hash": recipe_hash(recipes, project, config, compiler, args.bin),
           "bin": os.path.realpath(args.bin),
           "started": datetime.datetime.now().isoformat(timespec="seconds"),
           "log": os.path.relpath(logf, args.out), "phases": {}, "status": "ok"}
    t_start = time.time()
    try:
        extract(source_tarball(res["package"]), src)
    except Exception as e:  # noqa: BLE001 - reported in the result
        res.update(status="failed", failed_phase="source", error=str(e))
        return res
    env = step_env(recipes, config, compiler, args.bin, args.jobs, work, src, destdir)
    # Sources a recipe builds beside the project's (a board's firmware with its C library):
    # each extracted into WORK, named by $<PACKAGE>_SRC.
    for pkg in r.get("extra_packages", []):
        dest = os.path.join(work, pkg + "-src")
        try:
            extract(source_tarball(pkg), dest)
        except Exception as e:  # noqa: BLE001 - reported in the result
            res.update(status="failed", failed_phase="source", error=str(e))
            return res
        env[pkg.upper().replace("-", "_").replace(".", "_") + "_SRC"] = dest
    decisions = os.path.join(work, "decisions.jsonl")
    # smartcc's decision log and counters of the phases that make what is installed: the build
    # (TUs and links) and the install (libtool relinks there). Not configure: any SMARTCC_
    # variable sends every command through smartcc's core, which would slow the probes down.
    recorded = {"build": (decisions, os.path.join(work, "stats", "build")),
                "install": (os.path.join(work, "decisions.install.jsonl"),
                            os.path.join(work, "stats", "install"))}
    timeout = int(r.get("timeout", 3600))
    for phase in ("prepare", "configure", "build", "install"):
        cmd = r.get(phase)
        if not cmd:
            continue
        penv = dict(env)
        if compiler == "smartcc" and phase in recorded:
            penv["SMARTCC_LOG"], penv["SMARTCC_STATS_DIR"] = recorded[phase]
        log(f"  {name}: {phase}")
        rc, wall, cpu = run_phase(cmd, src, penv, logf, timeout)
        res["phases"][phase] = {"rc": rc, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3)}
        if rc != 0:
            res.update(status="failed", failed_phase=phase, log_tail=tail(logf))
            break
    if res["status"] == "ok":
        res["installed"] = measure_install(destdir, measurer, r.get("raw_images", []))
        res["objects"] = measure_objects(src, measurer)
        res["measured_with"] = measurer.method
        if not res["installed"]:
            res.update(status="failed", failed_phase="install",
                       error="the install step installed no ELF file")
    if compiler == "smartcc":
        res["core"] = core_id(args.bin)
        res["decisions"] = decision_summary(decisions)
        res["links"] = link_summary(
            [(ph, lg) for ph, (lg, _) in recorded.items()],
            [stats_counters(args.bin, st) for _, st in recorded.values()], link_jobs())
        for ph, (lg, _) in recorded.items():
            if os.path.exists(lg):
                shutil.copyfile(lg, os.path.join(
                    args.out, "logs", name + (".decisions.jsonl" if ph == "build" else
                                              f".{ph}.decisions.jsonl")))
    # A board's boot check runs on both compilers' images (`test_both`): the comparison is of
    # images that boot.
    both = r.get("test_both", config_for(recipes, config).get("test_both", False))
    if res["status"] == "ok" and r.get("test") and (compiler == "smartcc" or args.test_clang
                                                     or both):
        log(f"  {name}: test")
        rc, wall, cpu = run_phase(r["test"], src, env, logf, int(r.get("test_timeout", 3600)))
        res["tests"] = "pass" if rc == 0 else "FAIL"
        res["phases"]["test"] = {"rc": rc, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3)}
        if rc != 0:
            res["test_log_tail"] = tail(logf)
    elif res["status"] == "ok":
        res["tests"] = "none" if not r.get("test") else "not run"
    res["duration_s"] = round(time.time() - t_start, 1)
    if res["status"] == "ok" and not args.keep_trees:
        shutil.rmtree(work, ignore_errors=True)
    return res


# ---------------------------------------------------------------- aggregation

def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def ratio(a, b):
    return a / b if a and b else None


def sum_installed(installed, kinds):
    acc = empty_sizes()
    acc["stripped_bytes"] = 0
    acc["file_bytes"] = 0
    acc["files"] = 0
    for rec in installed.values():
        if rec["kind"] in kinds:
            for k in acc:
                if k == "files":
                    acc[k] += 1
                else:
                    acc[k] += rec.get(k, 0)
    return acc


def compare(c, s):
    """One project x configuration: clang step c, smartcc step s."""
    row = {"project": c["project"], "config": c["config"], "package": c["package"],
           "build_system": c["build_system"]}
    if c["status"] != "ok" or s["status"] != "ok":
        bad = c if c["status"] != "ok" else s
        row["status"] = f"{bad['compiler']} {bad.get('failed_phase', '?')} failed"
        return row
    row["status"] = "ok"
    linked = ("executable", "shared")
    lc, ls = sum_installed(c["installed"], linked), sum_installed(s["installed"], linked)
    ac, as_ = sum_installed(c["installed"], ("archive",)), sum_installed(s["installed"],
                                                                         ("archive",))
    row["linked"] = {"clang": lc, "smartcc": ls}
    row["archives"] = {"clang": ac, "smartcc": as_}
    row["image_ratio"] = ratio(lc["image"], ls["image"])
    row["class_ratio"] = {k: ratio(lc[k], ls[k]) for k in CLASSES + ("bss", "ram")}
    row["stripped_ratio"] = ratio(lc["stripped_bytes"], ls["stripped_bytes"])
    row["archive_ratio"] = ratio(ac["image"], as_["image"])
    oc, os_ = c["objects"], s["objects"]
    common = sorted(set(oc) & set(os_))
    row["objects"] = len(common)
    row["object_bytes"] = {"clang": sum(oc[k] for k in common),
                           "smartcc": sum(os_[k] for k in common)}
    row["object_ratio"] = ratio(row["object_bytes"]["clang"], row["object_bytes"]["smartcc"])
    row["object_geomean"] = geomean([ratio(oc[k], os_[k]) for k in common])
    row["objects_smaller"] = sum(1 for k in common if os_[k] < oc[k])
    row["objects_larger"] = sum(1 for k in common if os_[k] > oc[k])
    row["decisions"] = s.get("decisions", {})
    if s.get("links"):
        row["links"] = s["links"]
    pc, ps = c["phases"], s["phases"]
    row["time"] = {}
    for phase in ("configure", "build"):
        if phase in pc and phase in ps:
            row["time"][phase] = {
                "clang_wall_s": pc[phase]["wall_s"], "smartcc_wall_s": ps[phase]["wall_s"],
                "clang_cpu_s": pc[phase]["cpu_s"], "smartcc_cpu_s": ps[phase]["cpu_s"],
                "wall_ratio": ratio(ps[phase]["wall_s"], pc[phase]["wall_s"]),
                "cpu_ratio": ratio(ps[phase]["cpu_s"], pc[phase]["cpu_s"])}
    row["tests"] = s.get("tests", "none")
    if c.get("tests") in ("pass", "FAIL"):
        row["clang_tests"] = c["tests"]
    row["files"] = {}
    for f in sorted(set(c["installed"]) | set(s["installed"])):
        a, b = c["installed"].get(f), s["installed"].get(f)
        row["files"][f] = {"kind": (a or b)["kind"],
                           "clang": a and {k: a.get(k) for k in ("image",) + CLASSES +
                                           ("bss", "stripped_bytes")},
                           "smartcc": b and {k: b.get(k) for k in ("image",) + CLASSES +
                                             ("bss", "stripped_bytes")}}
    return row


def add_gcc(row, g, s):
    """gcc -Os's linked images beside a clang/smartcc row: row["gcc"] (sizes by class, or the
    failure) and row["gcc_ratio"] = gcc / smartcc (> 1: smartcc smaller than gcc)."""
    if g["status"] != "ok" or row["status"] != "ok":
        row["gcc"] = {"status": g["status"] if g["status"] != "ok" else "smartcc failed"}
        return
    linked = sum_installed(g["installed"], ("executable", "shared"))
    row["gcc"] = dict(linked, status="ok", tests=g.get("tests", "none"))
    row["gcc_ratio"] = ratio(linked["image"], row["linked"]["smartcc"]["image"])
    row["gcc_class_ratio"] = {k: ratio(linked[k], row["linked"]["smartcc"][k]) for k in CLASSES}


def gcc_table(cfg, rows):
    """smartcc against gcc -Os, where gcc's steps ran (--compilers clang,smartcc,gcc)."""
    ok = [r for r in rows if r.get("gcc", {}).get("status") == "ok"]
    if not ok:
        return []
    L = [f"**Against gcc -Os ({cfg})**: gcc / smartcc (> 1: smartcc smaller)", "",
         "| project | gcc -Os | clang-22 | smartcc | gcc/smartcc | code | rodata | data | unwind |",
         "|---|---|---|---|---|---|---|---|---|"]
    for r in ok:
        g, cr = r["gcc"], r["gcc_class_ratio"]
        L.append(f"| {r['project']} | {f_bytes(g['image'])} | {f_bytes(r['linked']['clang']['image'])} "
                 f"| {f_bytes(r['linked']['smartcc']['image'])} | {f_ratio(r['gcc_ratio'])} | "
                 + " | ".join(f_ratio(cr[k]) for k in CLASSES) + " |")
    tot = {k: sum(r["gcc"][k] for r in ok) for k in ("image",) + CLASSES}
    sm = {k: sum(r["linked"]["smartcc"][k] for r in ok) for k in ("image",) + CLASSES}
    cl = sum(r["linked"]["clang"]["image"] for r in ok)
    L.append(f"| **total** | {f_bytes(tot['image'])} | {f_bytes(cl)} | {f_bytes(sm['image'])} | "
             f"{f_ratio(ratio(tot['image'], sm['image']))} | "
             + " | ".join(f_ratio(ratio(tot[k], sm[k])) for k in CLASSES) + " |")
    L += ["", f"- geomean over projects of gcc/smartcc: "
          f"{f_ratio(geomean([r['gcc_ratio'] for r in ok]))}; smartcc smaller than gcc on "
          f"{sum(1 for r in ok if r['gcc_ratio'] > 1)} of {len(ok)}", ""]
    return L


def totals(rows):
    ok = [r for r in rows if r["status"] == "ok"]
    t = {"projects": len(ok), "failed": len(rows) - len(ok)}
    if not ok:
        return t
    for side in COMPILERS:
        acc = {k: 0 for k in ("image",) + CLASSES + ("bss", "ram", "stripped_bytes")}
        for r in ok:
            for k in acc:
                acc[k] += r["linked"][side][k]
        acc["archive_image"] = sum(r["archives"][side]["image"] for r in ok)
        acc["object_bytes"] = sum(r["object_bytes"][side] for r in ok)
        t[side] = acc
    t["image_ratio"] = ratio(t["clang"]["image"], t["smartcc"]["image"])
    t["class_ratio"] = {k: ratio(t["clang"][k], t["smartcc"][k])
                        for k in CLASSES + ("bss", "ram")}
    t["stripped_ratio"] = ratio(t["clang"]["stripped_bytes"], t["smartcc"]["stripped_bytes"])
    t["object_ratio"] = ratio(t["clang"]["object_bytes"], t["smartcc"]["object_bytes"])
    t["archive_ratio"] = ratio(t["clang"]["archive_image"], t["smartcc"]["archive_image"])
    t["geomean_image_ratio"] = geomean([r["image_ratio"] for r in ok])
    t["larger"] = sum(1 for r in ok if r["linked"]["smartcc"]["image"] >
                      r["linked"]["clang"]["image"])
    t["smaller"] = sum(1 for r in ok if r["linked"]["smartcc"]["image"] <
                       r["linked"]["clang"]["image"])
    t["equal"] = len(ok) - t["larger"] - t["smaller"]
    t["objects"] = sum(r["objects"] for r in ok)
    t["candidate_shipped"] = sum(r["decisions"].get("candidate_shipped", 0) for r in ok)
    t["object_geomean_over_projects"] = geomean([r["object_geomean"] for r in ok])
    for phase in ("configure", "build"):
        rs = [r["time"][phase] for r in ok if phase in r["time"]]
        if rs:
            t[phase] = {k: ratio(sum(x["smartcc_" + k] for x in rs),
                                 sum(x["clang_" + k] for x in rs))
                        for k in ("wall_s", "cpu_s")}
    t["tests_pass"] = sum(1 for r in ok if r["tests"] == "pass")
    t["tests_fail"] = sum(1 for r in ok if r["tests"] == "FAIL")
    links = merge_links([r["links"] for r in ok if r.get("links")])
    if links:
        t["links"] = links
    return t


def merge_links(summaries):
    """The sum of link_summary's over projects (None when no project recorded one)."""
    if not summaries:
        return None
    t = {}
    for s in summaries:
        for k, v in s.items():
            if k == "link_jobs":
                t[k] = v
            elif isinstance(v, dict):
                d = t.setdefault(k, {})
                for kk, vv in v.items():
                    d[kk] = d.get(kk, 0) + vv
            else:
                t[k] = t.get(k, 0) + v
    for k in ("clang_link_ms", "smartcc_link_ms", "candidate_ms"):
        t[k] = round(t.get(k, 0), 1)
    return t


def has_links(s):
    return bool(s and (s.get("owned") or s.get("passthrough")))


def f_counts(d):
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))) \
        or "-"


def link_row(s):
    """The cells of the link-decision table: owned, shipped (which), kept (why), bytes saved,
    left to clang (why), link time smartcc/clang (estimated), candidate link CPU / clang's."""
    base, saved = s["baseline_bytes"], s["saved_bytes"]
    return [str(s["owned"]), f"{s['candidate_shipped']} ({f_counts(s['shipped'])})"
            if s["candidate_shipped"] else "0", f_counts(s["kept"]),
            f"{f_bytes(saved)} ({f_pct(base, base - saved)})",
            f_counts(s["passthrough"]),
            f_ratio(ratio(s["smartcc_link_ms"], s["clang_link_ms"]), 2),
            f_ratio(ratio(s["clang_link_ms"] + s["candidate_ms"], s["clang_link_ms"]), 2)]


LINK_HEADER = ["project", "links owned", "candidate shipped (which)", "clang's link kept (why)",
               "bytes saved by the link step", "links left to clang (why)",
               "link wall smartcc/clang", "link CPU smartcc/clang"]
LINK_NOTE = ("Links: smartcc's decision log (`\"kind\": \"link\"` lines) of the build and "
             "install phases; *left to clang* are its `link.passthrough.REASON` counters "
             "(`lto_link_not_lld`: a GNU linker; `link_side_output`: --why-extract, save-temps "
             "and the like, a map file only with another linker than lld; `not_size_level`: no "
             "-Oz/-Os on the link line). Bytes saved: baseline minus shipped image of the owned links, in % of their baseline. Link wall: smartcc's whole owned "
             "link (clang's link, the candidates beside and after it, the decision; the log's "
             "`total_ms`) over clang's link timed inside smartcc (the baseline; smartcc before "
             "086924e (2026-11-26) logged no total: then the baseline plus the candidates run {jobs} at "
             "once); link CPU: baseline plus every candidate link, over the baseline.")


# ---------------------------------------------------------------- reports

def f_ratio(x, digits=4):
    return "-" if x is None else f"{x:.{digits}f}"


def f_pct(c, s):
    """smartcc's change in percent of clang's bytes (negative: smaller)."""
    if not c:
        return "-" if not s else "+inf"
    return f"{(s - c) * 100.0 / c:+.2f} %"


def f_bytes(n):
    return f"{n:,}"


def per_image_table(cfg, rows):
    """Every installed image of every project, by class (a board's bootloader, kernel and
    firmware are separate images, each booted), raw images by file size."""
    L = [f"**Per image ({cfg})**", "",
         "| project | image | clang | smartcc | ratio | code | rodata | data | unwind | "
         "boot/run check |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["status"] != "ok":
            continue
        check = r["tests"] + (f" (clang: {r['clang_tests']})" if "clang_tests" in r else "")
        for f, d in r["files"].items():
            a, b = d["clang"], d["smartcc"]
            if not a or not b or d["kind"] == "archive":
                continue
            cls = (["–"] * 4 if d["kind"] == "raw" else
                   [f_ratio(ratio(a[k], b[k])) for k in CLASSES])
            L.append(f"| {r['project']} | {f}{' (raw)' if d['kind'] == 'raw' else ''} | "
                     f"{f_bytes(a['image'])} | {f_bytes(b['image'])} | "
                     f"{f_ratio(ratio(a['image'], b['image']))} | " + " | ".join(cls) +
                     f" | {check} |")
    return L + [""]


def markdown(results):
    L = ["# link-bench: clang-22 -Oz vs smartcc -Oz, linked images", "",
         f"Generated {results['generated']}; smartcc from `{results['bin']}`; measured with "
         f"{results['measured_with']}.", ""]
    if len(results.get("cores", [])) > 1:
        L += [f"**Warning: the smartcc steps ran with {len(results['cores'])} different "
              f"smartcc-core binaries** ({'; '.join(results['cores'])}): rebuilt during the run; "
              "rerun the older steps (`--force --compilers smartcc`) for one binary.", ""]
    L += [CONVENTION,
         "Image = file-backed allocated bytes (code + rodata + data + unwind) of every ELF "
         "executable and shared library the install step installed; bss costs RAM only; "
         "stripped = llvm-strip'd file size; archives = object image bytes of installed static "
         "libraries; objects = image bytes of the build tree's .o files.", ""]
    for cfg, block in results["configs"].items():
        rows, t = block["rows"], block["totals"]
        L += [f"## {cfg}: {block['description']}", ""]
        if not rows:
            L += [f"Not run yet: {', '.join(block['pending'])}", ""]
            continue
        L += ["| project | build | image clang → smartcc | ratio | code | rodata | data | "
              "unwind | bss clang → smartcc | stripped ratio | archives ratio | objects "
              "(shipped) | obj geomean | configure time | build wall | build CPU | tests |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            if r["status"] != "ok":
                L.append(f"| {r['project']} | {r['build_system']} | {r['status']} |" +
                         " |" * 14)
                continue
            lc, ls = r["linked"]["clang"], r["linked"]["smartcc"]
            cr = r["class_ratio"]
            tm = r["time"]
            tests = r["tests"] + (f" (clang: {r['clang_tests']})" if "clang_tests" in r else "")
            L.append(
                f"| {r['project']} | {r['build_system']} | {f_bytes(lc['image'])} → "
                f"{f_bytes(ls['image'])} ({f_pct(lc['image'], ls['image'])}) | "
                f"{f_ratio(r['image_ratio'])} | {f_ratio(cr['code'])} | {f_ratio(cr['rodata'])} "
                f"| {f_ratio(cr['data'])} | {f_ratio(cr['unwind'])} | {f_bytes(lc['bss'])} → "
                f"{f_bytes(ls['bss'])} | {f_ratio(r['stripped_ratio'])} | "
                f"{f_ratio(r['archive_ratio'])} | {r['objects']} "
                f"({r['decisions'].get('candidate_shipped', 0)}) | "
                f"{f_ratio(r['object_geomean'])} | "
                f"{f_ratio(tm.get('configure', {}).get('wall_ratio'), 2)} | "
                f"{f_ratio(tm.get('build', {}).get('wall_ratio'), 2)} | "
                f"{f_ratio(tm.get('build', {}).get('cpu_ratio'), 2)} | {tests} |")
        if t.get("projects"):
            L += ["", f"**Totals ({cfg}, {t['projects']} projects"
                  + (f", {t['failed']} failed" if t["failed"] else "") + ")**", "",
                  "| figure | clang | smartcc | ratio clang/smartcc |", "|---|---|---|---|"]
            for k in ("image",) + CLASSES + ("bss", "ram", "stripped_bytes", "archive_image",
                                             "object_bytes"):
                rr = ratio(t["clang"][k], t["smartcc"][k])
                L.append(f"| {k} | {f_bytes(t['clang'][k])} | {f_bytes(t['smartcc'][k])} | "
                         f"{f_ratio(rr)} ({f_pct(t['clang'][k], t['smartcc'][k])}) |")
            L += ["", f"- geomean over projects of the image ratio: "
                  f"{f_ratio(t['geomean_image_ratio'])}; smartcc smaller on {t['smaller']}, "
                  f"equal on {t['equal']}, **larger on {t['larger']}** projects",
                  f"- per TU: {t['objects']} objects, candidate shipped in "
                  f"{t['candidate_shipped']}; geomean over projects of the per-object geomean "
                  f"{f_ratio(t['object_geomean_over_projects'])}",
                  f"- time smartcc/clang: configure wall "
                  f"{f_ratio(t.get('configure', {}).get('wall_s'), 2)}, CPU "
                  f"{f_ratio(t.get('configure', {}).get('cpu_s'), 2)}; build wall "
                  f"{f_ratio(t.get('build', {}).get('wall_s'), 2)}, CPU "
                  f"{f_ratio(t.get('build', {}).get('cpu_s'), 2)}",
                  f"- tests on smartcc's build: {t['tests_pass']} pass, {t['tests_fail']} fail",
                  ""]
        if block.get("per_image"):
            L += per_image_table(cfg, rows)
        L += gcc_table(cfg, rows)
        ok_links = [r for r in rows if r["status"] == "ok" and has_links(r.get("links"))]
        if ok_links:
            L += [f"**Link decisions ({cfg})**", "",
                  "| " + " | ".join(LINK_HEADER) + " |", "|---" * len(LINK_HEADER) + "|"]
            for r in ok_links:
                L.append(f"| {r['project']} | " + " | ".join(link_row(r["links"])) + " |")
            if t.get("links"):
                L.append("| **total** | " + " | ".join(link_row(t["links"])) + " |")
            L += ["", LINK_NOTE.format(jobs=ok_links[0]["links"].get("link_jobs", "?")), ""]
        if block.get("pending"):
            L += [f"Not run yet: {', '.join(block['pending'])}", ""]
    g = results.get("total")
    if g and g.get("projects"):
        L += ["## All configurations", "",
              "| figure | clang | smartcc | ratio clang/smartcc |", "|---|---|---|---|"]
        for k in ("image",) + CLASSES + ("bss", "stripped_bytes", "object_bytes"):
            L.append(f"| {k} | {f_bytes(g['clang'][k])} | {f_bytes(g['smartcc'][k])} | "
                     f"{f_ratio(ratio(g['clang'][k], g['smartcc'][k]))} |")
        L += ["", f"- project × configuration pairs: {g['projects']}; geomean image ratio "
              f"{f_ratio(g['geomean_image_ratio'])}; smartcc larger on {g['larger']}, smaller on "
              f"{g['smaller']}, equal on {g['equal']}", ""]
    return "\n".join(L) + "\n"


def svg_bars(title, axis_title, items, width=760):
    """A diverging horizontal bar chart around 1.0: items are (label, ratio, bold)."""
    items = [(lab, r, b) for lab, r, b in items if r is not None]
    if not items:
        return "<p>(no data)</p>"
    dev = max(abs(r - 1) for _, r, _ in items)
    left, right, top, bar_h, gap = 190, 110, 40, 18, 6
    plot_w = width - left - right
    ticks = 4 if plot_w >= 400 else 2
    step = next((s for s in (0.0005, 0.001, 0.002, 0.0025, 0.005, 0.01, 0.02, 0.025, 0.05, 0.1,
                             0.2, 0.25, 0.5, 1.0, 2.0, 5.0) if s * ticks >= dev * 1.1), 10.0)
    span = step * ticks
    lo, hi = 1 - span, 1 + span
    height = top + len(items) * (bar_h + gap) + 55

    def x(v):
        return left + (v - lo) / (hi - lo) * plot_w

    e = html.escape
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'viewBox="0 0 {width} {height}" role="img" aria-label="{e(title)}" '
         f'font-family="sans-serif" font-size="12">',
         f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="14" '
         f'font-weight="bold">{e(title)}</text>']
    digits = 3 if step >= 0.001 and round(step * 1000) == step * 1000 else 4
    digits = 2 if step >= 0.01 and round(step * 100) == step * 100 else digits
    for i in range(-ticks, ticks + 1):
        v = 1 + step * i
        s.append(f'<line x1="{x(v):.1f}" y1="{top - 4}" x2="{x(v):.1f}" '
                 f'y2="{height - 45}" stroke="#e4e4e4"/>')
        s.append(f'<text x="{x(v):.1f}" y="{height - 32}" text-anchor="middle" '
                 f'fill="#555">{v:.{digits}f}</text>')
    for i, (lab, r, bold) in enumerate(items):
        y = top + i * (bar_h + gap)
        x0, x1 = sorted((x(1.0), x(r)))
        color = "#2e9e44" if r > 1 else ("#d0342c" if r < 1 else "#888")
        pct = (1 / r - 1) * 100  # smartcc's change in bytes
        label = f"{pct:+.2f} %" if abs(pct) >= 0.005 else "±0"
        fw = ' font-weight="bold"' if bold else ""
        s.append(f'<text x="{left - 8}" y="{y + bar_h - 5}" text-anchor="end"{fw}>'
                 f'{e(lab)}</text>')
        s.append(f'<rect x="{x0:.1f}" y="{y}" width="{max(x1 - x0, 1):.1f}" height="{bar_h}" '
                 f'fill="{color}"><title>{e(lab)}: clang/smartcc {r:.4f}</title></rect>')
        tx, anchor, fill = (x1 + 4, "start", "#000") if r >= 1 else (x0 - 4, "end", "#000")
        room = (x0 - left) if r < 1 else (left + plot_w + right - x1)
        if room < 8 * len(label):  # no room outside the bar: write it inside, in white
            tx, anchor, fill = (x1 - 4, "end", "#fff") if r >= 1 else (x0 + 4, "start", "#fff")
        s.append(f'<text x="{tx:.1f}" y="{y + bar_h - 5}" text-anchor="{anchor}" '
                 f'fill="{fill}"{fw}>{label}</text>')
    s.append(f'<line x1="{x(1):.1f}" y1="{top - 8}" x2="{x(1):.1f}" y2="{height - 45}" '
             f'stroke="#000" stroke-width="1.5"/>')
    s.append(f'<text x="{x(1):.1f}" y="{top - 10}" text-anchor="middle" fill="#000">1.0'
             f'</text>')
    s.append(f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle" '
             f'fill="#222">{e(axis_title)}</text>')
    s.append(f'<text transform="translate(14,{top + (height - 45 - top) / 2}) rotate(-90)" '
             f'text-anchor="middle" fill="#222">project</text>')
    s.append("</svg>")
    return "\n".join(s)


def html_report(results):
    e = html.escape
    axis = "clang/smartcc image ratio (> 1.0: smartcc smaller, green; < 1.0: larger, red)"
    P = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
         "<title>link-bench: clang-22 -Oz vs smartcc -Oz</title><style>",
         "body{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}",
         "table{border-collapse:collapse;margin:1em 0;font-size:13px}",
         "th,td{border:1px solid #ccc;padding:3px 7px;text-align:right}",
         "th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}",
         ".good{color:#1d7a30;font-weight:bold}.bad{color:#b3261e;font-weight:bold}",
         ".charts{display:flex;flex-wrap:wrap;gap:1em}.wide{overflow-x:auto}",
         "</style></head><body>",
         "<h1>Linked images: clang-22 -Oz vs smartcc -Oz</h1>",
         f"<p>Generated {e(results['generated'])}; smartcc from <code>{e(results['bin'])}"
         f"</code>; sizes measured with {e(results['measured_with'])}.</p>",
         f"<p><b>{e(CONVENTION)}</b> Bar labels give smartcc's change in bytes. Image = "
         "file-backed allocated bytes (code + rodata + data + unwind) of every executable and "
         "shared library the project installs; .bss costs RAM only.</p>"]

    def cls(r):
        if r is None:
            return ""
        return " class='good'" if r > 1 else (" class='bad'" if r < 1 else "")

    for cfg, block in results["configs"].items():
        rows, t = block["rows"], block["totals"]
        ok = [r for r in rows if r["status"] == "ok"]
        P.append(f"<h2>{e(cfg)}: {e(block['description'])}</h2>")
        if not rows:
            P.append(f"<p>Not run yet: {e(', '.join(block['pending']))}</p>")
            continue
        items = [(r["project"], r["image_ratio"], False) for r in ok]
        if t.get("projects"):
            items.append(("TOTAL (bytes)", t["image_ratio"], True))
            items.append(("geomean", t["geomean_image_ratio"], True))
        P.append(svg_bars(f"{cfg}: linked image per project", axis, items))
        P.append("<div class='charts'>")
        for k in CLASSES:
            its = [(r["project"], r["class_ratio"][k], False) for r in ok]
            if t.get("projects"):
                its.append(("TOTAL", t["class_ratio"][k], True))
            P.append(svg_bars(f"{cfg}: {k} bytes", f"clang/smartcc {k} ratio (> 1.0: smartcc "
                              "smaller)", its, width=580))
        P.append("</div>")
        P.append("<div class='wide'><table><tr><th>project</th><th>build</th><th>image clang</th>"
                 "<th>image smartcc</th><th>change</th><th>ratio</th><th>code</th>"
                 "<th>rodata</th><th>data</th><th>unwind</th><th>bss clang</th>"
                 "<th>bss smartcc</th><th>stripped ratio</th><th>archives ratio</th>"
                 "<th>objects</th><th>shipped</th><th>obj geomean</th><th>configure time</th>"
                 "<th>build wall</th><th>build CPU</th><th>tests</th></tr>")
        for r in rows:
            if r["status"] != "ok":
                P.append(f"<tr><td>{e(r['project'])}</td><td>{e(r['build_system'])}</td>"
                         f"<td colspan='19' style='text-align:left'>{e(r['status'])}</td></tr>")
                continue
            lc, ls, cr, tm = r["linked"]["clang"], r["linked"]["smartcc"], r["class_ratio"], \
                r["time"]
            P.append(
                f"<tr><td>{e(r['project'])}</td><td>{e(r['build_system'])}</td>"
                f"<td>{f_bytes(lc['image'])}</td><td>{f_bytes(ls['image'])}</td>"
                f"<td{cls(r['image_ratio'])}>{f_pct(lc['image'], ls['image'])}</td>"
                f"<td{cls(r['image_ratio'])}>{f_ratio(r['image_ratio'])}</td>" +
                "".join(f"<td{cls(cr[k])}>{f_ratio(cr[k])}</td>" for k in CLASSES) +
                f"<td>{f_bytes(lc['bss'])}</td><td>{f_bytes(ls['bss'])}</td>"
                f"<td{cls(r['stripped_ratio'])}>{f_ratio(r['stripped_ratio'])}</td>"
                f"<td{cls(r['archive_ratio'])}>{f_ratio(r['archive_ratio'])}</td>"
                f"<td>{r['objects']}</td><td>{r['decisions'].get('candidate_shipped', 0)}</td>"
                f"<td>{f_ratio(r['object_geomean'])}</td>"
                f"<td>{f_ratio(tm.get('configure', {}).get('wall_ratio'), 2)}</td>"
                f"<td>{f_ratio(tm.get('build', {}).get('wall_ratio'), 2)}</td>"
                f"<td>{f_ratio(tm.get('build', {}).get('cpu_ratio'), 2)}</td>"
                f"<td class='{'good' if r['tests'] == 'pass' else 'bad'}'>{e(r['tests'])}"
                "</td></tr>")
        P.append("</table></div>")
        if t.get("projects"):
            P.append(f"<h3>Totals, {e(cfg)}</h3><table><tr><th>figure</th><th>clang</th>"
                     "<th>smartcc</th><th>ratio clang/smartcc</th><th>change</th></tr>")
            for k in ("image",) + CLASSES + ("bss", "ram", "stripped_bytes", "archive_image",
                                             "object_bytes"):
                rr = ratio(t["clang"][k], t["smartcc"][k])
                P.append(f"<tr><td>{k}</td><td>{f_bytes(t['clang'][k])}</td>"
                         f"<td>{f_bytes(t['smartcc'][k])}</td><td{cls(rr)}>{f_ratio(rr)}</td>"
                         f"<td>{f_pct(t['clang'][k], t['smartcc'][k])}</td></tr>")
            P.append("</table>")
            P.append(
                f"<p>Geomean over projects of the image ratio: "
                f"<b>{f_ratio(t['geomean_image_ratio'])}</b>; smartcc smaller on "
                f"{t['smaller']}, equal on {t['equal']}, <b>larger on {t['larger']}</b> of "
                f"{t['projects']} projects. Per TU: {t['objects']} objects, candidate shipped in"
                f" {t['candidate_shipped']}. Time smartcc/clang: configure wall "
                f"{f_ratio(t.get('configure', {}).get('wall_s'), 2)}, build wall "
                f"{f_ratio(t.get('build', {}).get('wall_s'), 2)}, build CPU "
                f"{f_ratio(t.get('build', {}).get('cpu_s'), 2)}. Tests on smartcc's build: "
                f"{t['tests_pass']} pass, {t['tests_fail']} fail.</p>")
        ok_links = [r for r in rows if r["status"] == "ok" and has_links(r.get("links"))]
        if ok_links:
            P.append(f"<h3>Link decisions, {e(cfg)}</h3><table><tr>" +
                     "".join(f"<th>{e(h)}</th>" for h in LINK_HEADER) + "</tr>")
            for r in ok_links:
                P.append(f"<tr><td>{e(r['project'])}</td>" +
                         "".join(f"<td>{e(x)}</td>" for x in link_row(r["links"])) + "</tr>")
            if t.get("links"):
                P.append("<tr><td><b>total</b></td>" +
                         "".join(f"<td><b>{e(x)}</b></td>" for x in link_row(t["links"])) +
                         "</tr>")
            P.append("</table><p>" + e(LINK_NOTE.format(
                jobs=ok_links[0]["links"].get("link_jobs", "?"))).replace("`", "") + "</p>")
        if block.get("pending"):
            P.append(f"<p>Not run yet: {e(', '.join(block['pending']))}</p>")
    P.append("</body></html>")
    return "\n".join(P) + "\n"


def aggregate(args, recipes, plan, measured_with):
    results = {"generated": datetime.datetime.now().isoformat(timespec="seconds"),
               "bin": os.path.realpath(args.bin), "clang": CLANG, "convention": CONVENTION,
               "measured_with": measured_with, "configs": {}}
    all_rows, methods, bins, cores = [], set(), set(), set()
    for cfg in args.isa:
        rows, pending = [], []
        for p in [p for (p, c) in plan if c == cfg]:
            steps = {}
            for comp in COMPILERS:
                path = step_path(args.out, p, cfg, comp)
                if os.path.exists(path):
                    steps[comp] = json.load(open(path))
                    if steps[comp].get("measured_with"):
                        methods.add(steps[comp]["measured_with"])
                    if comp == "smartcc" and steps[comp].get("bin"):
                        bins.add(steps[comp]["bin"])
                    if comp == "smartcc" and steps[comp].get("core"):
                        cores.add(steps[comp]["core"])
            if len(steps) == 2:
                rows.append(compare(steps["clang"], steps["smartcc"]))
                gpath = step_path(args.out, p, cfg, "gcc")
                if os.path.exists(gpath):
                    add_gcc(rows[-1], json.load(open(gpath)), steps["smartcc"])
            else:
                pending.append(p)
        t = totals(rows)
        results["configs"][cfg] = {"description": config_for(recipes, cfg).get("description", ""),
                                   "per_image": config_for(recipes, cfg).get("per_image", False),
                                   "rows": rows, "totals": t, "pending": pending}
        all_rows += rows
    results["total"] = totals(all_rows)
    if methods:
        results["measured_with"] = ", ".join(sorted(methods))
    if bins:
        results["bin"] = ", ".join(sorted(bins))
    results["cores"] = sorted(cores)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(markdown(results))
    with open(os.path.join(args.out, "report.html"), "w") as f:
        f.write(html_report(results))
    return results


# ---------------------------------------------------------------- main

def step_path(out, project, config, compiler):
    return os.path.join(out, "steps", f"{project}.{config}.{compiler}.json")


def hms(s):
    s = int(s)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def estimate(pending, done):
    """Seconds left: a pending step takes what the same project's other steps took (the
    smartcc/clang ratio seen so far for a smartcc step), else the mean finished step."""
    if not done:
        return None
    mean = sum(done.values()) / len(done)
    pairs = [(done[(p, c, "smartcc")], done[(p, c, "clang")]) for (p, c, k) in done
             if k == "clang" and (p, c, "smartcc") in done and done[(p, c, "clang")] > 0]
    slow = sum(a for a, _ in pairs) / sum(b for _, b in pairs) if pairs else 2.0
    left = 0.0
    for (p, c, k) in pending:
        if k == "smartcc" and (p, c, "clang") in done:
            left += done[(p, c, "clang")] * slow
        else:
            same = [v for (pp, cc, kk), v in done.items() if pp == p and kk == k]
            left += (sum(same) / len(same)) if same else (mean if k == "clang" or not pairs
                                                         else mean * slow / (1 + slow) * 2)
    return left


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=CONVENTION)
    ap.add_argument("out", nargs="?")
    ap.add_argument("--isa", default=None,
                    help="configurations, comma-separated (default: all in the recipes: "
                         "x86_64,aarch64,aarch64-fw,x86_64-lto,aarch64-lto,aarch64-fw-lto)")
    ap.add_argument("--projects", default=None, help="comma-separated (default: all)")
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "bin"),
                    help="directory with smartcc, smartc++ (and smartcc-size)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--force", action="store_true", help="redo finished steps")
    ap.add_argument("--report-only", action="store_true",
                    help="only rewrite results.json, report.md, report.html")
    ap.add_argument("--recipes", default=os.path.join(HERE, "link-bench-projects.toml"))
    ap.add_argument("--keep-trees", action="store_true",
                    help="keep build trees of successful steps (OUT/work)")
    ap.add_argument("--test-clang", action="store_true",
                    help="also run the tests on clang's build")
    ap.add_argument("--compilers", default="clang,smartcc",
                    help="which builds to run (default clang,smartcc; clang alone with "
                         "--test-clang checks a new recipe; gcc adds gcc -Os builds, shown "
                         "against smartcc's, not in LTO configurations)")
    ap.add_argument("--self-test", action="store_true",
                    help="quick smoke run: zlib, x86_64 only (OUT defaults to a temp dir)")
    args = ap.parse_args()
    recipes = load_recipes(args.recipes)
    if args.self_test:
        args.out = args.out or tempfile.mkdtemp(prefix="link-bench-self-test.")
        args.isa = args.isa or "x86_64"
        args.projects = args.projects or "zlib"
    if not args.out:
        ap.error("OUT is required")
    os.makedirs(args.out, exist_ok=True)
    args.out = os.path.abspath(args.out)
    args.bin = os.path.abspath(args.bin)
    args.isa = (args.isa.split(",") if args.isa else list(recipes["configs"]))
    for c in args.isa:
        if c not in recipes["configs"]:
            ap.error(f"unknown configuration {c}; known: {', '.join(recipes['configs'])}")
    names = args.projects.split(",") if args.projects else list(recipes["projects"])
    for p in names:
        if p not in recipes["projects"]:
            ap.error(f"unknown project {p}; known: {', '.join(recipes['projects'])}")
    plan = [(p, c) for c in args.isa for p in names
            if c in recipes["projects"][p].get("configs", [])]
    measurer = Measurer(args.bin)
    os.makedirs(os.path.join(args.out, "steps"), exist_ok=True)
    if not args.report_only:
        for tool in ("smartcc", "smartc++"):
            if not os.access(os.path.join(args.bin, tool), os.X_OK):
                sys.exit(f"link-bench: no {tool} in {args.bin} (--bin DIR)")
        steps = [(p, c, k) for (p, c) in plan for k in COMPILERS + ("gcc",)
                 if k in args.compilers.split(",")]
        log(f"link-bench: {len(plan)} project x configuration pairs, {len(steps)} steps; "
            f"smartcc from {args.bin}; sizes by {measurer.method}; out {args.out}")
        log(CONVENTION)
        done, todo = {}, []
        for (p, c, k) in steps:
            path = step_path(args.out, p, c, k)
            if not args.force and os.path.exists(path):
                old = json.load(open(path))
                if old.get("recipe_hash") == recipe_hash(recipes, p, c, k, args.bin):
                    done[(p, c, k)] = old.get("duration_s", 0)
                    continue
            todo.append((p, c, k))
        if done:
            log(f"  reusing {len(done)} finished steps (--force redoes them)")
        t0 = time.time()
        for i, (p, c, k) in enumerate(todo):
            # Re-read the recipes: a fix made during a long run applies to the steps after it.
            try:
                recipes = load_recipes(args.recipes)
            except (OSError, tomllib.TOMLDecodeError) as e:
                log(f"  recipes not re-read ({e}); keeping the ones loaded")
            left = estimate(todo[i:], done)
            log(f"[{len(done) + 1}/{len(steps)}] {p} {c} {k}  (elapsed {hms(time.time() - t0)}"
                + (f", ETA {hms(left)})" if left is not None else ", ETA unknown)"))
            res = run_step(args, recipes, p, c, k, measurer, step_path(args.out, p, c, k))
            done[(p, c, k)] = res.get("duration_s", 0)
            with open(step_path(args.out, p, c, k), "w") as f:
                json.dump(res, f, indent=1)
            msg = res["status"]
            if res["status"] != "ok":
                msg += f" in {res.get('failed_phase')}: see {res['log']}"
            elif res.get("tests") not in (None, "not run"):
                msg += f", tests {res.get('tests')}"
            log(f"  {p} {c} {k}: {msg} ({res.get('duration_s', 0):.0f} s)")
            if k == "smartcc" and res.get("tests") == "FAIL" and not args.test_clang:
                log("  (tests failed on smartcc's build: rerun with --test-clang --projects "
                    f"{p} --isa {c} --force --keep-trees to compare with clang's)")
            aggregate(args, recipes, plan, measurer.method)
    results = aggregate(args, recipes, plan, measurer.method)
    log(f"link-bench: wrote {os.path.join(args.out, 'report.md')}, report.html, results.json")
    sys.stdout.write(markdown(results))
    if args.self_test:
        rows = [r for b in results["configs"].values() for r in b["rows"]]
        bad = [r for r in rows if r["status"] != "ok" or r["tests"] == "FAIL"
               or not r["linked"]["clang"]["image"]]
        # What smartcc promises, on what users ship: the linked image is never larger.
        larger = [r for r in rows if not bad and
                  r["linked"]["smartcc"]["image"] > r["linked"]["clang"]["image"]]
        for r in larger:
            log(f"self-test: {r['project']} linked image larger with smartcc: "
                f"{r['linked']['clang']['image']} -> {r['linked']['smartcc']['image']}")
        if bad or larger or not rows or measurer.disagreements:
            sys.exit("link-bench self-test: FAILED")
        log(f"self-test: {len(rows)} passed, 0 failed")


if __name__ == "__main__":
    main()
