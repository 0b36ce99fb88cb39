// difftest C++ program deep-recursion (docs/difftest.md): exceptions thrown from thousands of
// frames deep, through a recursion that alternates between main and a shared library, with
// counted destructors in every frame and handlers that rethrow every so many levels; then a
// recursion inside the library and one inside main with frames of varying sizes. Prints a
// trace; exits 0 only when every expected catch happened and every object was destroyed.
#include "recursion.h"
#include <cstdio>

static int failures;

static void expect(const char *what, long got, long want) {
  std::printf("%-40s %ld%s\n", what, got, got == want ? "" : "  <- FAIL");
  if (got != want) {
    std::printf("  expected %ld\n", want);
    ++failures;
  }
}

static long main_step(int depth, int bottom, int every) {
  Tracked t(depth);
  if (depth == bottom)
    throw Bottom{depth};
  return lib_down(depth + 1, bottom, every, main_step) + 2;
}

// main's own recursion: the exception is caught at `catch_at`, translated to an int, which
// passes through the levels above to the caller.
__attribute__((noinline)) static long main_deep(int depth, int bottom, int catch_at) {
  Tracked t(depth);
  if (depth == bottom)
    throw Bottom{depth};
  if (depth == catch_at) {
    try {
      return main_deep(depth + 1, bottom, catch_at);
    } catch (const Bottom &b) {
      throw int(b.depth - depth);
    }
  }
  long r = main_deep(depth + 1, bottom, catch_at);
  return r + (depth % 3 == 0);
}

static void balanced(const char *what) {
  expect(what, tracked_made - tracked_gone, 0);
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);   // the trace survives a std::terminate
  // The mutual recursion always ends in a throw at `bottom`, caught here.
  struct Case {
    int bottom, every;
  };
  const Case cases[] = {{1, 0}, {2, 0}, {999, 0}, {4000, 0}, {4001, 501}, {6000, 7}};
  for (const Case &c : cases) {
    long made = tracked_made, re = rethrows;
    long r;
    try {
      r = main_step(0, c.bottom, c.every);
    } catch (const Bottom &b) {
      r = b.depth;
    }
    std::printf("mutual recursion to %d, handlers every %d levels\n", c.bottom, c.every);
    expect("  caught at depth", r, c.bottom);
    expect("  frames", tracked_made - made, c.bottom + 1);
    // lib_down runs at odd depths; it rethrows at depths that are multiples of `every`.
    long want = 0;
    for (int d = 1; d < c.bottom; d += 2)
      want += c.every && d % c.every == 0;
    expect("  rethrows", rethrows - re, want);
    balanced("  all destroyed");
  }

  long r = lib_deep(0, 3000, 1000);
  expect("library recursion caught at 1000", r, -3000 + 500);
  balanced("library recursion: all destroyed");
  r = lib_deep(0, 5000, 0);
  expect("library recursion caught at 0", r, -5000);
  balanced("library recursion: all destroyed");

  try {
    r = main_deep(0, 5000, 2500);
  } catch (int d) {
    r = d;
  }
  expect("main recursion: distance", r, 2500);
  balanced("main recursion: all destroyed");
  try {
    r = main_deep(0, 20, 30);
  } catch (const Bottom &b) {
    r = -b.depth;
  }
  expect("main recursion: bottom above the handler", r, -20);
  balanced("main recursion: all destroyed");
  expect("objects made", tracked_made,
         (2 + 3 + 1000 + 4001 + 4002 + 6001) + 3001 + 5001 + 5001 + 21);
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures != 0;
}
