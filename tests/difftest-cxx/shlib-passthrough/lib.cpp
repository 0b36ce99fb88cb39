// difftest C++ program shlib-passthrough, the shared library (built with -fPIC -shared by the
// same compiler and mode as main.cpp): functions that throw, catch, rethrow and translate
// exceptions, and frames that only let them pass: with a try block for another type, with a
// destructor only, and with neither.
#include "shlib.h"
#include <cstdio>
#include <stdexcept>
#include <vector>

BaseError::~BaseError() {}
int BaseError::kind() const { return 1; }
DerivedError::~DerivedError() {}
int DerivedError::kind() const { return 2; }

int lib_cleanups, lib_rethrows, lib_local_catches;

namespace {
struct Cleanup {
  int tag;
  ~Cleanup() { lib_cleanups += tag; }
};
} // namespace

__attribute__((noinline)) int lib_throw_int(int v) {
  if (v > 2)
    throw v * 10;
  return v;
}

int lib_filter(int v) {
  try {
    return lib_throw_int(v) + 1;
  } catch (const std::runtime_error &) {
    ++lib_local_catches;
    return -1;
  }
}

int lib_plain(int v) { return lib_filter(v + 1) * 2; }

int lib_cleanup(int v) {
  Cleanup c{1};
  return lib_plain(v) + 3;
}

int lib_rethrow(int v) {
  try {
    return lib_cleanup(v);
  } catch (int e) {
    ++lib_rethrows;
    if (e > 1000)
      return e;          // never: every int thrown here is small
    throw;
  }
}

int lib_translate(int v) {
  Cleanup c{100};
  try {
    return lib_rethrow(v);
  } catch (int e) {
    throw DerivedError(e + 1);
  }
}

int lib_swallow(int v) {
  try {
    return lib_translate(v);
  } catch (...) {
    ++lib_local_catches;
    return -100;
  }
}

int lib_catch_base(int (*cb)(int), int v) {
  try {
    return cb(v);
  } catch (const BaseError &e) {
    ++lib_local_catches;
    return e.code * 10 + e.kind();
  }
}

int lib_call_through(int (*cb)(int), int v) {
  Cleanup c{10000};
  return cb(v) + 1;
}

int lib_at(int i) {
  std::vector<int> v{7, 8, 9};
  return v.at(i);
}

int lib_loop(int n) {
  int caught = 0;
  for (int i = 0; i < n; ++i) {
    try {
      if (i % 3 != 1)
        throw DerivedError(i);
      ++caught;
    } catch (const BaseError &e) {
      caught += e.code % 2;
    }
  }
  return caught;
}
