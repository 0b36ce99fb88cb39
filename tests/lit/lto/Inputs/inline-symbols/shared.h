// A library's header with inline functions and a template, as C++ libraries have.
#pragma once

struct Big {
  int Value;
};

// Called by two of the library's files and by the program; nobody takes its address: each
// module may keep its copy to itself. It throws through the library into the program.
[[gnu::noinline]] inline int twice(int X) {
  if (X > 1000)
    throw Big{X};
  return 2 * X;
}

// The library hands out its address and the program compares it with its own: one
// definition for the whole process, so the library must keep exporting it.
[[gnu::noinline]] inline int thrice(int X) { return 3 * X; }

template <class T> struct Box {
  T V;
  [[gnu::noinline]] T get() const { return V + 1; }
};

// inst.cpp instantiates Box<long> for everyone; users of this header rely on the library's
// definition (explicit-instantiation.cpp defines it implicitly too, not seeing this line).
#ifndef NO_EXTERN_BOX
extern template struct Box<long>;
#endif

// One body for two types: once hidden, lld's identical code folding keeps one of the two.
template <class T> [[gnu::noinline]] T *firstOf(T **V) { return V[0]; }

int libA(int X);
int *firstInt(int **V);
long *firstLong(long **V);
int libB(int X);
long libBox(long V);
int (*libThrice())(int);
