// difftest C++ program deep-recursion, the shared library: half of a mutual recursion with
// main (each level of either calls the other), and a recursion of its own.
#include "recursion.h"

long tracked_made, tracked_gone, rethrows;

Tracked::Tracked(int d) : depth(d) { ++tracked_made; }
Tracked::~Tracked() { ++tracked_gone; }

long lib_down(int depth, int bottom, int every, step_fn next) {
  Tracked t(depth);
  if (depth == bottom)
    throw Bottom{depth};
  if (every && depth % every == 0) {
    try {
      return next(depth + 1, bottom, every) + 1;
    } catch (const Bottom &) {
      ++rethrows;
      throw;
    }
  }
  return next(depth + 1, bottom, every) + (t.depth & 1);
}

long lib_deep(int depth, int bottom, int catch_at) {
  Tracked t(depth);
  volatile unsigned char pad[24 + depth % 7];      // frames of different sizes
  pad[0] = (unsigned char)depth;
  if (depth == bottom)
    throw Bottom{depth};
  if (depth == catch_at) {
    try {
      return lib_deep(depth + 1, bottom, catch_at);
    } catch (const Bottom &b) {
      return -b.depth;
    }
  }
  return lib_deep(depth + 1, bottom, catch_at) + pad[0] % 2;
}
