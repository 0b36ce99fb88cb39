// Functions without a frame pointer that pass small constants to calls, at -Oz pushed and
// popped (each pair with two CFA adjustments) unless moved; an exception thrown below them
// unwinds through every one, and backtrace() walks them.
#include <cstdio>
#include <execinfo.h>
#include <stdexcept>

extern "C" __attribute__((noinline)) int leaf(int a, int b, int c) {
  if (a + b + c == 42) {
    void *frames[16];
    int depth = backtrace(frames, 16);
    std::printf("backtrace depth ok: %d\n", depth >= 4);
#ifndef NO_EH // (compiled without exceptions to show the pass leaves such code alone)
    throw std::runtime_error("forty-two");
#endif
  }
  return a * b - c;
}

__attribute__((noinline)) int middle(int x) {
  int r = leaf(x, 5, -1) + leaf(x, 7, 9);
  return r + leaf(x, 3, 12);
}

__attribute__((noinline)) long wide(long x) { return x > 0 ? x * -3 + leaf(1, 2, 3) : 12; }

int main(int argc, char **) {
  long sum = wide(argc + 4) + middle(argc);
#ifndef NO_EH
  try {
    sum += middle(37 + argc);
  } catch (const std::exception &e) {
    std::printf("caught %s\n", e.what());
  }
#endif
  std::printf("sum %ld\n", sum);
  return 0;
}
