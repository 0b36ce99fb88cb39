// difftest C++ program shlib-passthrough (docs/difftest.md): main calls a shared library whose
// functions throw and catch, some letting exceptions pass through frames that have try blocks
// of their own or no handler at all, and passes it callbacks that throw through the library.
// Prints a trace; exits 0 only when every expected catch happened.
#include "shlib.h"
#include <cstdio>
#include <stdexcept>

static int failures;

static void expect(const char *what, long got, long want) {
  std::printf("%-34s %ld%s\n", what, got, got == want ? "" : "  <- FAIL");
  if (got != want) {
    std::printf("  expected %ld\n", want);
    ++failures;
  }
}

// The outcome of a call: its value, or 1000000 + the code of what was caught, by type.
template <class F> static long outcome(F f) {
  try {
    return f();
  } catch (const DerivedError &e) {
    return 3000000 + e.code;
  } catch (const BaseError &e) {
    return 2000000 + e.code;
  } catch (int e) {
    return 1000000 + e;
  } catch (const std::out_of_range &) {
    return 4000000;
  }
}

static int main_cleanups;
struct MainCleanup {
  ~MainCleanup() { ++main_cleanups; }
};

__attribute__((noinline)) static int throws_derived(int v) {
  MainCleanup m;
  if (v & 1)
    throw DerivedError(v);
  return v;
}
__attribute__((noinline)) static int throws_int(int v) {
  if (v > 0)
    throw v;
  return -v;
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);   // the trace survives a std::terminate
  expect("throw_int(1)", outcome([] { return lib_throw_int(1); }), 1);
  expect("throw_int(5)", outcome([] { return lib_throw_int(5); }), 1000050);
  expect("filter(2)", outcome([] { return lib_filter(2); }), 3);
  expect("filter(3) passes an int", outcome([] { return lib_filter(3); }), 1000030);
  expect("plain(1)", outcome([] { return lib_plain(1); }), 6);
  expect("plain(2) passes an int", outcome([] { return lib_plain(2); }), 1000030);
  expect("cleanup(0)", outcome([] { return lib_cleanup(0); }), 4 + 3);
  expect("cleanup(4) passes an int", outcome([] { return lib_cleanup(4); }), 1000050);
  expect("rethrow(7)", outcome([] { return lib_rethrow(7); }), 1000080);
  expect("translate(1)", outcome([] { return lib_translate(1); }), 6 + 3);
  expect("translate(3) -> DerivedError", outcome([] { return lib_translate(3); }), 3000041);
  expect("swallow(9)", outcome([] { return lib_swallow(9); }), -100);
  expect("swallow(0)", outcome([] { return lib_swallow(0); }), 4 + 3);
  expect("catch_base(cb throws Derived)", outcome([] { return lib_catch_base(throws_derived, 7); }),
         72);
  expect("catch_base(cb returns)", outcome([] { return lib_catch_base(throws_derived, 8); }), 8);
  expect("catch_base(cb throws int)", outcome([] { return lib_catch_base(throws_int, 4); }),
         1000004);
  expect("call_through(cb throws Derived)",
         outcome([] { return lib_call_through(throws_derived, 5); }), 3000005);
  expect("call_through(cb throws int)", outcome([] { return lib_call_through(throws_int, 6); }),
         1000006);
  expect("call_through(cb returns)", outcome([] { return lib_call_through(throws_int, -6); }), 7);
  expect("at(2)", outcome([] { return lib_at(2); }), 9);
  expect("at(3) -> out_of_range", outcome([] { return lib_at(3); }), 4000000);
  expect("loop(300)", lib_loop(300), 100 + 100);
  // Through the library and back: main's callback calls into the library again.
  expect("nested call_through(catch_base)", outcome([] {
           return lib_call_through([](int v) { return lib_catch_base(throws_derived, v); }, 3);
         }),
         33);
  expect("nested catch_base(translate)", outcome([] {
           return lib_catch_base([](int v) { return lib_translate(v); }, 4);
         }),
         (50 + 1) * 10 + 2);

  expect("library cleanups", lib_cleanups, 8 + 100 * 5 + 10000 * 4);
  expect("library rethrows", lib_rethrows, 4);
  expect("library local catches", lib_local_catches, 4);
  expect("main cleanups", main_cleanups, 4);
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures != 0;
}
