// difftest C++ program noexcept-terminate (docs/difftest.md), one file: noexcept functions
// that handle every exception of their callees must not terminate; one that lets an
// exception escape must call std::terminate, exactly there. A terminate handler prints the
// stage reached and exits 0 only when it is the expected last stage and every check before it
// passed; returning from main (no terminate) exits 1.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <unistd.h>

static int failures, stage;
static const int kLastStage = 6;

static void expect(const char *what, long got, long want) {
  std::printf("%-40s %ld%s\n", what, got, got == want ? "" : "  <- FAIL");
  if (got != want) {
    std::printf("  expected %ld\n", want);
    ++failures;
  }
}

[[noreturn]] static void on_terminate() {
  std::printf("std::terminate at stage %d\n", stage);
  expect("terminated at the last stage", stage, kLastStage);
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  std::fflush(stdout);
  _exit(failures != 0);
}

__attribute__((noinline)) static int thrower(int v) {
  if (v > 2)
    throw std::runtime_error("big");
  if (v < 0)
    throw v;
  return v * 3;
}

// Handles everything it calls: must not terminate.
static int guarded(int v) noexcept {
  try {
    return thrower(v);
  } catch (const std::exception &) {
    return -1;
  } catch (...) {
    return -2;
  }
}

// Calls a noexcept function from inside its own try block: the nothrow call needs no entry.
static int outer(int v) {
  try {
    return guarded(v) + thrower(v - 10);
  } catch (int e) {
    return e;
  }
}

// A destructor is implicitly noexcept: one that catches inside is fine.
struct Careful {
  int *out;
  ~Careful() {
    try {
      thrower(5);
    } catch (const std::runtime_error &) {
      ++*out;
    }
  }
};

// Lets the exception escape: std::terminate, from the noexcept boundary.
__attribute__((noinline)) static int escapes(int v) noexcept { return thrower(v) + 1; }

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);   // the trace survives a std::terminate
  std::set_terminate(on_terminate);
  stage = 1;
  expect("guarded(1)", guarded(1), 3);
  expect("guarded(3)", guarded(3), -1);
  expect("guarded(-4)", guarded(-4), -2);
  stage = 2;
  expect("outer(1)", outer(1), -9);
  expect("outer(12)", outer(12), -1 + 6);
  stage = 3;
  int handled = 0;
  try {
    Careful c{&handled};
    thrower(-7);
  } catch (int e) {
    expect("caught past a destructor that catches", e, -7);
  }
  expect("the destructor's own catch", handled, 1);
  stage = 4;
  expect("escapes(2), no throw", escapes(2), 7);
  stage = 5;
  long sum = 0;
  for (int i = -3; i < 6; ++i)
    sum += guarded(i);
  expect("guarded over -3..5", sum, 3 * -2 + 0 + 3 + 6 + 3 * -1);
  stage = kLastStage;
  std::printf("calling escapes(9): std::terminate expected\n");
  std::fflush(stdout);
  try {
    escapes(9);
  } catch (...) {
    std::printf("caught what should have terminated\n");
  }
  std::printf("no std::terminate\n");
  return 1;
}
