// A shared library whose functions catch exceptions of their own and let others pass: each
// step*() has a landing pad (its try block), so its unwind entry has an LSDA whose call-site
// table lists the code ranges where a call may throw. Before the try block each makes the same
// plain call, check(v, 21, 22, 23, 24), which may throw Failure to step*()'s caller, and no
// other call there may throw. The machine outliner (AArch64 at -Oz) makes the argument set-up
// and the call one outlined function that ends in a tail call of check() (a thunk without a
// frame, which a shared unwind run could cover), and each step*() calls the thunk instead.
// The call still throws: the call-site table must still list it, or the personality routine
// finds no entry for it and calls std::terminate().
#include "failure.h"

// Throws for negative values; not inlined so that every step*() makes the same call.
__attribute__((noinline)) void check(int v, int a, int b, int c, int d) {
  if (v < 0)
    throw Failure{v + a + b + c + d};
}

__attribute__((noinline)) int risky(int v) {
  if (v == 1000)
    throw Failure{v};
  return v + 1;
}

#define STEP(N)                                                                                \
  int step##N(int v) {                                                                         \
    check(v, 21, 22, 23, 24);                                                                  \
    int r;                                                                                     \
    try {                                                                                      \
      r = risky(7 * N);                                                                        \
    } catch (const Failure &) {                                                                \
      r = -N;                                                                                  \
    }                                                                                          \
    return r;                                                                                  \
  }
STEP(1)
STEP(2)
STEP(3)
STEP(4)
STEP(5)
STEP(6)

// Leaves without a frame (their unwind entries say only the CIE's rule): what a shared unwind
// run covers, so that the candidate has something to gain.
int twice(int v) noexcept { return v * 2; }
int thrice(int v) noexcept { return v * 3; }
int clamp(int v) noexcept { return v < 0 ? 0 : v > 99 ? 99 : v; }
int parity(int v) noexcept { return v & 1; }
