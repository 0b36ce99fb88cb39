// difftest C++ program outlined-calls (docs/difftest.md): calls every step of the library and
// of main's own copy of the same shapes (shapes.inc) with inputs that return (0, 3), that throw
// past the step from check() (-1, -40, 77) and from risky() (1000 / N, 1000 - N): every throw
// that a step does not handle must reach main's handler, none may end in std::terminate.
// Prints a trace (one line per step and input); exits 0 only when all expected catches
// happened.
#include "outlined.h"
#include <cstdio>

int main_catches, main_rethrows;

#include "shapes.inc"
ALL_SHAPES(main_, 1)
ALL_SHAPES(main_, 2)
ALL_SHAPES(main_, 5)
ALL_SHAPES(main_, 10)
ALL_SHAPES(main_, 25)

static const step_fn main_steps[] = {LIST_SHAPES(main_, 1) LIST_SHAPES(main_, 2)
                                         LIST_SHAPES(main_, 5) LIST_SHAPES(main_, 10)
                                             LIST_SHAPES(main_, 25)};
static const int factors[] = {1, 2, 4, 5, 8, 10, 20, 25};

static int failures;

// Runs one step: its value, or 100000 + code for Failure, 200000 + code for Other.
static long run_step(step_fn f, int v, long *caught) {
  try {
    return f(v);
  } catch (const Failure &e) {
    ++*caught;
    return 100000 + e.code;
  } catch (const Other &e) {
    ++*caught;
    return 200000 + e.code;
  }
}

static long run_all(const char *who, const step_fn *steps, int count, const int *ns) {
  long total = 0, caught = 0;
  for (int i = 0; i < count; ++i) {
    int n = ns[i / 6];
    const int inputs[] = {0, 3, -1, -40, 77, 1000 / n, 1000 - n};
    std::printf("%s step %c%d:", who, "abcdef"[i % 6], n);
    for (int v : inputs) {
      long r = run_step(steps[i], v, &caught);
      std::printf(" %ld", r);
      total += r;
    }
    std::printf("\n");
  }
  std::printf("%s: total %ld, caught %ld\n", who, total, caught);
  return caught;
}

static void expect(const char *what, long got, long want) {
  std::printf("%-28s %ld%s\n", what, got, got == want ? "" : "  <- FAIL");
  if (got != want) {
    std::printf("  expected %ld\n", want);
    ++failures;
  }
}

// What a step of shape S with factor N throws to main for input v (1) or not (0).
static int throws(int shape, int n, int v) {
  switch (shape) {
  case 0: // a: risky's Failure is caught; check throws for v < 0 and 77
    return v < 0 || v == 77;
  case 1: // b: risky(v + n) == 1000 throws Failure past the inner handler; check as a
    return v + n == 1000 || v < 0 || v == 77;
  case 2: // c: check(v) then check(v + n)
    return v < 0 || v == 77 || v + n < 0 || v + n == 77;
  case 3: // d: check
    return v < 0 || v == 77;
  case 4: // e: noexcept, catches everything
    return 0;
  default: // f: check(v + n)
    return v + n < 0 || v + n == 77;
  }
}

static long expected(int count, const int *ns) {
  long want = 0;
  for (int i = 0; i < count; ++i) {
    int n = ns[i / 6];
    const int inputs[] = {0, 3, -1, -40, 77, 1000 / n, 1000 - n};
    for (int v : inputs)
      want += throws(i % 6, n, v);
  }
  return want;
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);   // the trace survives a std::terminate
  static const int main_factors[] = {1, 2, 5, 10, 25};
  long lib_caught = run_all("lib", lib_steps, lib_step_count, factors);
  long main_caught = run_all("main", main_steps, sizeof main_steps / sizeof main_steps[0],
                             main_factors);
  expect("library steps", lib_step_count, 48);
  expect("caught from the library", lib_caught, expected(lib_step_count, factors));
  expect("caught from main's steps", main_caught,
         expected(sizeof main_steps / sizeof main_steps[0], main_factors));
  std::printf("library handlers %d, rethrows %d; main handlers %d, rethrows %d\n", lib_catches,
              lib_rethrows, main_catches, main_rethrows);
  expect("handled inside the steps", lib_catches + main_catches > 0, 1);
  expect("rethrown by the steps", lib_rethrows + main_rethrows > 0, 1);
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures != 0;
}
