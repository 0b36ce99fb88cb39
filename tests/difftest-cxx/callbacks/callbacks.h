// difftest C++ program callbacks (docs/difftest.md): the library's interface.
#pragma once
#include <cstddef>
#include <functional>

extern "C" {
// C-style interfaces: a qsort-like sort and a visitor taking a function pointer and a context.
// C++ callbacks throw through them.
typedef int (*dt_compare)(const void *, const void *);
void dt_sort(void *base, size_t n, size_t size, dt_compare cmp);
typedef void (*dt_visit_fn)(void *ctx, int value);
int dt_visit(const int *values, int n, dt_visit_fn fn, void *ctx);
}

struct Shape {
  virtual ~Shape();
  virtual int area() const = 0;
  virtual int scale(int k);          // the library's own: throws for k < 0
};
struct Square : Shape {              // the library's own shape
  int side;
  explicit Square(int s) : side(s) {}
  int area() const override;
};

// Sums s->area() over the shapes; a handler for another type (const char *) on the way.
int lib_total_area(Shape *const *shapes, int n);
// Calls s.scale(k) for each k in ks through the virtual call, with a cleanup.
int lib_scale_all(Shape &s, const int *ks, int n);
// Applies f to 0..n-1 and sums; f may throw (the library catches only std::bad_function_call).
long lib_apply(const std::function<int(int)> &f, int n);
// Composes two functions into a std::function kept by the library and calls it.
long lib_compose(std::function<int(int)> f, std::function<int(int)> g, int v);
extern int lib_destroyed;
