// difftest C++ program callbacks, the shared library: a C-style sort and visitor, virtual
// calls and std::function calls, all of which main's callbacks throw through.
#include "callbacks.h"
#include <cstring>
#include <functional>

int lib_destroyed;

namespace {
struct Counted {
  ~Counted() { ++lib_destroyed; }
};

void swap_bytes(char *a, char *b, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    char t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

// A plain insertion sort over a partition step: C code, no handlers, no cleanups.
void sort_range(char *base, size_t lo, size_t hi, size_t size, dt_compare cmp) {
  while (hi - lo > 8) {
    size_t mid = lo + (hi - lo) / 2, store = lo;
    swap_bytes(base + mid * size, base + (hi - 1) * size, size);
    for (size_t i = lo; i + 1 < hi; ++i)
      if (cmp(base + i * size, base + (hi - 1) * size) < 0)
        swap_bytes(base + i * size, base + store++ * size, size);
    swap_bytes(base + store * size, base + (hi - 1) * size, size);
    sort_range(base, lo, store, size, cmp);
    lo = store + 1;
  }
  for (size_t i = lo + 1; i < hi; ++i)
    for (size_t j = i; j > lo && cmp(base + (j - 1) * size, base + j * size) > 0; --j)
      swap_bytes(base + (j - 1) * size, base + j * size, size);
}
} // namespace

extern "C" void dt_sort(void *base, size_t n, size_t size, dt_compare cmp) {
  sort_range(static_cast<char *>(base), 0, n, size, cmp);
}

extern "C" int dt_visit(const int *values, int n, dt_visit_fn fn, void *ctx) {
  int visited = 0;
  for (int i = 0; i < n; ++i) {
    fn(ctx, values[i]);
    ++visited;
  }
  return visited;
}

Shape::~Shape() {}
int Shape::scale(int k) {
  if (k < 0)
    throw k;
  return area() * k;
}
int Square::area() const { return side * side; }

int lib_total_area(Shape *const *shapes, int n) {
  int total = 0;
  try {
    for (int i = 0; i < n; ++i)
      total += shapes[i]->area();
  } catch (const char *) {
    return -1;
  }
  return total;
}

int lib_scale_all(Shape &s, const int *ks, int n) {
  Counted c;
  int sum = 0;
  for (int i = 0; i < n; ++i)
    sum += s.scale(ks[i]);
  return sum;
}

long lib_apply(const std::function<int(int)> &f, int n) {
  Counted c;
  long sum = 0;
  for (int i = 0; i < n; ++i) {
    try {
      sum += f(i);
    } catch (const std::bad_function_call &) {
      return -1;
    }
  }
  return sum;
}

long lib_compose(std::function<int(int)> f, std::function<int(int)> g, int v) {
  std::function<int(int)> h = [f, g](int x) {
    Counted c;
    return g(f(x));
  };
  return h(v) + h(v + 1);
}
