// difftest C++ program callbacks (docs/difftest.md): exceptions thrown by main's callbacks
// through a shared library's C-style function-pointer interfaces (a qsort-like sort, a visitor
// with a context pointer), virtual calls (main's classes overriding the library's, and the
// library's own throwing virtual), std::function and std::sort. Prints a trace; exits 0 only
// when every expected catch happened.
#include "callbacks.h"
#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <vector>

static int failures;

static void expect(const char *what, long got, long want) {
  std::printf("%-36s %ld%s\n", what, got, got == want ? "" : "  <- FAIL");
  if (got != want) {
    std::printf("  expected %ld\n", want);
    ++failures;
  }
}

struct Stop {
  int at;
};

static int comparisons, stop_after;

static int compare_ints(const void *a, const void *b) {
  if (++comparisons == stop_after)
    throw Stop{comparisons};
  int x = *static_cast<const int *>(a), y = *static_cast<const int *>(b);
  return (x > y) - (x < y);
}

static long checksum(const std::vector<int> &v) {
  long s = 0;
  for (int x : v)
    s += x;
  return s;
}

static std::vector<int> numbers(int n) {
  std::vector<int> v;
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    v.push_back(int(x >> 16) % 1000);
  }
  return v;
}

struct VisitState {
  int seen, limit;
};

static void visit(void *ctx, int value) {
  auto *st = static_cast<VisitState *>(ctx);
  if (++st->seen > st->limit)
    throw std::length_error("too many");
  if (value < 0)
    throw value;
}

struct Circle : Shape {
  int r;
  explicit Circle(int r) : r(r) {}
  int area() const override {
    if (r == 0)
      throw std::invalid_argument("empty circle");
    return 3 * r * r;
  }
  int scale(int k) override {
    if (k == 0)
      throw Stop{-r};
    return Shape::scale(k);
  }
};

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);   // the trace survives a std::terminate
  // The C-style sort: no throw, then throws at several comparisons, deep in its recursion.
  std::vector<int> v = numbers(300);
  long sum = checksum(v);
  comparisons = 0;
  stop_after = -1;
  dt_sort(v.data(), v.size(), sizeof(int), compare_ints);
  expect("sorted", std::is_sorted(v.begin(), v.end()), 1);
  int total_comparisons = comparisons;
  int caught = 0;
  for (int at : {1, 2, 50, 777, 1500, total_comparisons}) {
    std::vector<int> w = numbers(300);
    comparisons = 0;
    stop_after = at;
    try {
      dt_sort(w.data(), w.size(), sizeof(int), compare_ints);
    } catch (const Stop &s) {
      caught += s.at == at;
      expect("  sort stopped, elements kept", checksum(w), sum);
    }
  }
  expect("sort throws caught", caught, 6);

  // std::sort (the header's code, compiled here) with the same comparator.
  caught = 0;
  for (int at : {3, 100, 1000}) {
    std::vector<int> w = numbers(200);
    comparisons = 0;
    stop_after = at;
    try {
      std::sort(w.begin(), w.end(), [](int a, int b) { return compare_ints(&a, &b) < 0; });
    } catch (const Stop &s) {
      caught += s.at == at;
    }
  }
  expect("std::sort throws caught", caught, 3);

  // The visitor with a context pointer.
  int values[] = {1, 2, 3, -4, 5, 6};
  VisitState st{0, 100};
  long r;
  try {
    r = dt_visit(values, 6, visit, &st);
  } catch (int e) {
    r = 1000 + e;
  }
  expect("visit throws int", r, 996);
  st = VisitState{0, 2};
  try {
    r = dt_visit(values, 3, visit, &st);
  } catch (const std::length_error &) {
    r = -st.seen;
  }
  expect("visit throws length_error", r, -3);

  // Virtual calls: main's override throws through the library's loop (which has a handler
  // for another type), the library's own virtual throws through main's override.
  Square sq(4);
  Circle c1(2), c0(0);
  Shape *shapes[] = {&sq, &c1, &c0};
  expect("total area of 2", lib_total_area(shapes, 2), 16 + 12);
  try {
    r = lib_total_area(shapes, 3);
  } catch (const std::invalid_argument &) {
    r = -2;
  }
  expect("total area throws invalid_argument", r, -2);
  int ks[] = {1, 2, -3};
  try {
    r = lib_scale_all(sq, ks, 3);
  } catch (int k) {
    r = k;
  }
  expect("Square scale throws int", r, -3);
  try {
    r = lib_scale_all(c1, ks, 3);
  } catch (int k) {
    r = k * 10;
  }
  expect("Circle scale throws int (base)", r, -30);
  int ks0[] = {2, 0};
  try {
    r = lib_scale_all(c1, ks0, 2);
  } catch (const Stop &s) {
    r = s.at;
  }
  expect("Circle scale throws Stop", r, -2);

  // std::function, called by the library, throwing at its 7th call.
  std::function<int(int)> f = [](int i) {
    if (i == 7)
      throw std::runtime_error("seven");
    return i * i;
  };
  expect("apply 7 calls", lib_apply(f, 7), 91);
  try {
    r = lib_apply(f, 10);
  } catch (const std::runtime_error &) {
    r = -7;
  }
  expect("apply throws at 7", r, -7);
  expect("apply empty function", lib_apply(std::function<int(int)>(), 3), -1);
  try {
    r = lib_compose([](int x) { return x + 1; },
                    [](int x) -> int {
                      if (x > 5)
                        throw Stop{x};
                      return x * 2;
                    },
                    5);
  } catch (const Stop &s) {
    r = s.at;
  }
  expect("compose throws in g", r, 6);
  expect("compose", lib_compose([](int x) { return x + 1; }, [](int x) { return x * 2; }, 1),
         4 + 6);
  expect("library cleanups", lib_destroyed, 3 + 3 + 3);
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures != 0;
}
