// Where the counters live by default, header-only: the LLVM-free launcher (which counts build
// probes) and the core's configuration (Config::effectiveStatsDir) must agree on it.
#pragma once
#include <cstdlib>
#include <string>

namespace smartcc {

// ${XDG_CACHE_HOME}/smartcc, else ${HOME}/.cache/smartcc; empty when neither is set.
inline std::string defaultStatsDirFromEnvironment() {
  if (const char *Cache = std::getenv("XDG_CACHE_HOME"); Cache && *Cache)
    return std::string(Cache) + "/smartcc";
  if (const char *Home = std::getenv("HOME"); Home && *Home)
    return std::string(Home) + "/.cache/smartcc";
  return "";
}

} // namespace smartcc
