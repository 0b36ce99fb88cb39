// C++ exceptions around a translation unit's shared unwind entry: twice() and pick() are
// frameless and cannot throw (in the run); forward() only tail-calls check(), which throws, so
// it may throw and keeps an entry of its own; work() has a landing pad (Guard's destructor) and
// calls all three. Every exception must reach main's handler through work's cleanup.
#include <cstdio>
#include <stdexcept>

int twice(int x) noexcept { return 2 * x; }
int pick(int a, int b) noexcept { return a < b ? a : b; }
__attribute__((noinline)) int check(int x) {
  if (x > 5)
    throw std::runtime_error("big");
  return x;
}
int forward(int x) { return check(x); }

struct Guard {
  int n;
  ~Guard() { std::printf("guard %d\n", n); }
};

__attribute__((noinline)) int work(int x) {
  Guard g{x};
  return twice(pick(x, 9)) + forward(x);
}

int (*volatile use[])(int) noexcept = {twice};

int main() {
  int s = 0;
  for (int i = 0; i < 8; i++) {
    try {
      s += work(i) + use[0](i);
    } catch (const std::exception &e) {
      std::printf("caught %s at %d\n", e.what(), i);
    }
  }
  std::printf("%d\n", s);
  return 0;
}
