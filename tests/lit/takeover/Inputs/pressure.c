/* Twelve values live across a call in a loop: more than the callee-saved registers of x86-64,
   so the greedy allocator spills; the program's output checks the computation. */
#include <stdio.h>
static long sink;
__attribute__((noinline)) void use(long a, long x) { sink += a ^ x; }
__attribute__((noinline)) long kernel(long *p, long n) {
  long a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6], h = p[7],
       i = p[8], j = p[9], k = p[10], l = p[11];
  for (long x = 0; x < n; x++) {
    a += b * x; b ^= c + x; c -= d; d += e * a; e ^= f; f += g * b; g -= h;
    h += i * c; i ^= j; j += k * d; k -= l; l += a * e; use(a + l, x);
  }
  return a + b + c + d + e + f + g + h + i + j + k + l;
}
int main(void) {
  long p[12];
  for (int i = 0; i < 12; i++) p[i] = 3 * i + 1;
  printf("%ld %ld\n", kernel(p, 1000), sink);
  return 0;
}
