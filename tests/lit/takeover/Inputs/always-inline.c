/* A static always_inline helper: the source demands that every call be inlined. */
static inline __attribute__((always_inline)) int scale(int x, int k) { return x * k + 1; }
int f(int x) { return scale(x, 3); }
int g(int x) { return scale(x, 5) - scale(x, 7); }
