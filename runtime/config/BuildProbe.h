// Build-system probes, recognized the same way by the LLVM-free launcher (which passes them
// straight to clang) and by the core's eligibility check (header-only on purpose).
//
// A probe is autoconf's conftest, zlib's configure's ztestPID, CMake's compiler identification
// and try_compile projects, or Meson's compiler checks. Nobody ships it, so it runs no
// candidate and is never harvested; a configure runs hundreds, so the launcher does not even
// load the core for them.
#pragma once
#include <string_view>

namespace smartcc {

// Source: an input as given on the command line; Directory: the working directory.
inline bool isBuildProbe(std::string_view Source, std::string_view Directory) {
  auto Contains = [](std::string_view S, std::string_view Part) {
    return S.find(Part) != std::string_view::npos;
  };
  auto StartsWith = [](std::string_view S, std::string_view Prefix) {
    return S.substr(0, Prefix.size()) == Prefix;
  };
  size_t Slash = Source.rfind('/');
  std::string_view Name = Slash == std::string_view::npos ? Source : Source.substr(Slash + 1);
  // zlib's hand-written configure (and firmware builds use it) names its probes ztestPID.c.
  auto ZlibProbe = [&] {
    size_t I = 5;
    while (I < Name.size() && Name[I] >= '0' && Name[I] <= '9')
      ++I;
    return StartsWith(Name, "ztest") && I > 5 && Name.substr(I, 1) == ".";
  };
  // A real CMake build compiles from the build tree (or one of its folders) into
  // CMakeFiles/TARGET.dir/: only probes run *inside* CMakeFiles.
  return StartsWith(Name, "conftest.") || ZlibProbe() || StartsWith(Name, "CMakeCCompilerId") ||
         StartsWith(Name, "CMakeCXXCompilerId") || Contains(Directory, "/CMakeFiles/") ||
         Contains(Source, "/CMakeFiles/CMakeScratch/") ||
         Contains(Source, "/CMakeFiles/CMakeTmp/") ||
         Contains(Directory, "/meson-private/") ||
         (Directory.size() >= 14 && Directory.substr(Directory.size() - 14) == "/meson-private") ||
         Contains(Source, "/meson-private/") || StartsWith(Source, "meson-private/");
}

// Probes the launcher passes to clang are counted by appending one byte each to this file in
// the stats directory (O_APPEND: parallel configures lose nothing, no lock needed); the
// counters read its size as passthrough.build_probe (runtime/observe/Stats.h).
inline constexpr const char *BuildProbeCountFile = "build-probes";

} // namespace smartcc
