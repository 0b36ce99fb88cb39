// Small frameless functions (no stack frame, no calls): in clang's link each has an unwind
// entry of its own that says nothing but the CIE's rule.
volatile int stop;

int square(int a) { return a * a; }
int next(int a) { return a + 1; }
int mix(int a, int b) { return a ^ (b >> 3); }
unsigned rotate(unsigned v, unsigned n) { return (v << (n & 31)) | (v >> (-n & 31)); }

// Spins until a signal handler sets stop: where the program is when the signal arrives.
__attribute__((noinline)) int spin(int x) {
  while (!stop)
    x = x * 3 + 1;
  return x;
}

// A stack frame and no call: the IR check lets it through, code generation gives it a frame
// (the lit test lists it by hand to see the output check refuse it).
__attribute__((noinline)) int framed(int i) {
  volatile int a[64];
  for (int k = 0; k < 64; k++)
    a[k] = k + i;
  return a[(i + 7) & 63];
}
