// smartcc-ld: the linker a build names as $(LD) when its links do not go through the compiler
// driver (kernels and bootloaders: kbuild runs `$(LD) -r` and the final link itself). It is
// LLVM 22's ld.lld, the one beside smartcc's clang: every command runs as given, and what it
// writes is the baseline, byte for byte ld.lld's.
//
// A link whose inputs carry LTO bitcode (the build's own link-time optimization, such as
// Linux's CONFIG_LTO_CLANG, whose vmlinux.o is a relocatable LTO link of the whole kernel) is
// owned as smartcc owns clang's -flto links (driver/LTOLink.h): after the user's link, the
// link candidates repeat it with their LTO pipelines, and the smallest output that breaks no
// ship rule replaces the user's. A relocatable output (-r) is measured as an object (its
// allocated bytes are what the image will hold of it) and must show the next link the same
// symbols (runtime/link/RelocatableView.h); an executable must show the loader the same
// program (runtime/link/LoaderView.h).
//
// Without -flto, a link of smartcc's fat objects (an executable or shared library, not -r) is
// made whole-program as the driver's plain links are (driver/WholeProgramLink.h): ld.lld
// links the same command with --fat-lto-objects, the first candidate, and the link
// candidates follow: a firmware Makefile's `$(LD) -T board.ld ...` gets what smartcc's own
// link of it would.
//
// Why after the user's link rather than beside it: kbuild's links run one at a time at the end
// of the build, where nothing else is left to run, and the user's link then has every thread
// for its own LTO code generation.
#pragma once

namespace smartcc {

// Whether the program runs as the linker front (its name ends in "smartcc-ld").
bool isLinkerFrontName(const char *Argv0);

int linkerFrontMain(int Argc, const char **Argv);

} // namespace smartcc
