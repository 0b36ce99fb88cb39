// Epilogues that free the alignment slot (runtime/compile/EpiloguePops.h).
int g(int);
int h4(int, int, int, int);

// Four callee-saved registers and calls: an 8-byte alignment slot, freed before the pops.
int withReturn(int a, int b, int c) {
  int x = g(a);
  if (x > 10) {
    int y = g(b);
    return h4(x, y, 0, 0) + c;
  }
  int z = g(c);
  if (z)
    return h4(z, a, 1, 1) + b;
  return g(x + z) + a + b + c;
}

// A tail call whose arguments occupy rdi, rsi, rdx and rcx: the pop takes another register.
int withTailCall(int a, int b, int c, int d) {
  int x = g(a);
  int y = g(b + x);
  int z = g(c + y);
  return h4(x, y, z + d, a + b + c);
}
