// difftest C++ program outlined-calls (docs/difftest.md): shared between the library and main.
#pragma once

struct Failure {
  int code;
};
struct Other {
  int code;
};

// Throws Failure{v + a + b + c + d} for v < 0, Other for v == 77; else returns v + a.
int check(int v, int a, int b, int c, int d);
// Throws Failure{v} for v == 1000.
int risky(int v);

typedef int (*step_fn)(int);
// The library's steps, by shape: A (try block, then the common call outside it), B (nested
// try blocks, the common call in the outer one, catch (...) and rethrow), C (no handler: two
// common calls), D (catch, adjust and rethrow), E (a noexcept wrapper whose own handler
// catches everything), F (a tail call of the common call).
extern const step_fn lib_steps[];
extern const int lib_step_count;
extern int lib_catches, lib_rethrows;
