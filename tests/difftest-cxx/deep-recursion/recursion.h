// difftest C++ program deep-recursion (docs/difftest.md): the library's interface.
#pragma once

// Objects whose constructions and destructions are counted (by the library).
struct Tracked {
  int depth;
  explicit Tracked(int d);
  ~Tracked();
};
extern long tracked_made, tracked_gone, rethrows;

struct Bottom {
  int depth;
};

typedef long (*step_fn)(int depth, int bottom, int every);
// One level of the mutual recursion main <-> library: a Tracked object, then a call to
// `next` (main's function) for depth + 1; throws Bottom at `bottom`; every `every` levels a
// handler that counts and rethrows.
long lib_down(int depth, int bottom, int every, step_fn next);
// Recursion within the library alone: throws at `bottom`, caught `catch_at` levels up.
long lib_deep(int depth, int bottom, int catch_at);
