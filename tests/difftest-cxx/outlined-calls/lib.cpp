// difftest C++ program outlined-calls, the shared library: many small functions of six
// shapes (shapes.inc) that make identical calls inside and outside try blocks, rethrow,
// nest try blocks, catch (...) and wrap throwing calls in noexcept functions.
#include "outlined.h"

int lib_catches, lib_rethrows;

__attribute__((noinline)) int check(int v, int a, int b, int c, int d) {
  if (v < 0)
    throw Failure{v + a + b + c + d};
  if (v == 77)
    throw Other{v};
  return v + a;
}

__attribute__((noinline)) int risky(int v) {
  if (v == 1000)
    throw Failure{v};
  return v + 1;
}

#include "shapes.inc"
ALL_SHAPES(lib_, 1)
ALL_SHAPES(lib_, 2)
ALL_SHAPES(lib_, 4)
ALL_SHAPES(lib_, 5)
ALL_SHAPES(lib_, 8)
ALL_SHAPES(lib_, 10)
ALL_SHAPES(lib_, 20)
ALL_SHAPES(lib_, 25)

const step_fn lib_steps[] = {LIST_SHAPES(lib_, 1) LIST_SHAPES(lib_, 2) LIST_SHAPES(lib_, 4)
                                 LIST_SHAPES(lib_, 5) LIST_SHAPES(lib_, 8) LIST_SHAPES(lib_, 10)
                                     LIST_SHAPES(lib_, 20) LIST_SHAPES(lib_, 25)};
const int lib_step_count = sizeof lib_steps / sizeof lib_steps[0];
