/* A shared library: f() calls the exported g() through the PLT with values live across the
   calls; k() calls the static h(), which binds locally, with values live across the calls. */
__attribute__((noinline)) int g(int x) { return x + 1; }
static __attribute__((noinline)) int h(int x) { return x * 3; }
__attribute__((noinline)) int f(int a, int b, int c, int d, int e, int k) {
  int s = g(a), t = g(b);
  return s * a + t * b + c * d + e * k + g(c) * a + b * c * d * e * k;
}
__attribute__((noinline)) int k(int a, int b, int c, int d, int e) {
  int u = h(c) * a + b;
  int v = h(u) * c + d;
  int w = h(v) * e + a;
  return u * v * w + a * b * c * d * e;
}
