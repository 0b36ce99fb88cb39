# lit configuration for smartcc's end-to-end tests: real compiles with the built smartcc,
# compared with real clang-22 (same binary smartcc stands in for).
import os
import re
import lit.formats

config.name = "smartcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".c", ".cpp"]
config.excludes = ["Inputs", "tools", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.smartcc_obj_root, "tests", "lit")

bindir = os.path.join(config.smartcc_obj_root, "bin")
llvm_bin = config.llvm_tools_dir
tools = os.path.join(config.test_source_root, "tools")

# Tests must not see the developer's own configuration, statistics or environment knobs.
for var in list(os.environ):
    if var.startswith("SMARTCC_") or var.startswith("CCC_") or var.startswith("CC_PRINT"):
        config.environment.pop(var, None)
config.environment["XDG_CONFIG_HOME"] = os.path.join(config.test_exec_root, "no-config")
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "cache")
config.environment["LC_ALL"] = "C"
# Objects without their bitcode section (fat_objects is on by default): most tests check that
# smartcc ships clang's object byte for byte, and the .llvm.lto section is by design the one
# difference (it reaches no image). lto/fat-objects.test and lto/whole-program.test turn it
# on and check what it changes; the end-to-end tests and difftest run the default.
config.environment["SMARTCC_FAT_OBJECTS"] = "0"

# Substitution keys are regular expressions: "++" must be escaped.
config.substitutions.append((re.escape("%smartcc++"), os.path.join(bindir, "smartc++")))
config.substitutions.append(("%smartcc-aarch64", os.path.join(bindir, "aarch64-linux-gnu-smartcc")))
config.substitutions.append(("%smartcc-core", os.path.join(bindir, "smartcc-core")))
config.substitutions.append(("%smartcc", os.path.join(bindir, "smartcc")))
config.substitutions.append(("%bindir", bindir))
config.substitutions.append((re.escape("%clang++"), os.path.join(llvm_bin, "clang++")))
config.substitutions.append(("%clang", os.path.join(llvm_bin, "clang")))
config.substitutions.append(("%llvm_bin", llvm_bin))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%tools", tools))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%fault-inject", os.path.join(config.smartcc_obj_root, "tests", "lib", "libsmartcc-fault-inject.so")))
config.substitutions.append(("%image-bytes", config.python_executable + " " + os.path.join(tools, "image-bytes.py")))
# `%fake-clang-as NAME`: real clang-22 run under another program name, i.e. exactly what clang
# prints and does when invoked as NAME (diagnostics are prefixed with the program name).
config.substitutions.append(("%fake-clang-as", config.python_executable + " " + os.path.join(tools, "run-as.py") + " " + os.path.join(llvm_bin, "clang")))

config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])

import platform
if platform.machine() == "x86_64":
    config.available_features.add("x86_64")
if os.path.exists("/usr/bin/gdb"):
    config.available_features.add("gdb")
if os.path.exists("/usr/bin/qemu-aarch64"):
    config.available_features.add("qemu-aarch64")
if os.path.exists("/usr/aarch64-linux-gnu/include/stdio.h"):
    config.available_features.add("aarch64-sysroot")
if os.path.exists("/usr/lib/picolibc/aarch64-linux-gnu/include/stdio.h"):
    config.available_features.add("picolibc-aarch64")
