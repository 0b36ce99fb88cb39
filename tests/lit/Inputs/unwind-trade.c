// Small helpers that -Os's pipeline compiles into a smaller image with more code (x86-64: the
// unwind entries shrink while the code grows), which the ship rule code_for_unwind refuses:
// unit CompilerEnvTest.ShippedBytesFollowTheCompilersShipRules, lit takeover/eval-levels.
static int mix(int a, int b) { return (a * 31) ^ (b >> 3) ^ (a + b * 7); }
static int fold(int a, int b) { return (a << 5) - (b * 3) + (a ^ b); }
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
int first(int *v, int n) { int h = 0; for (int i = 0; i < n; ++i) h = mix(h, v[i]); return clampi(h, -9, 99); }
int second(int *v, int n) { int h = 1; for (int i = 0; i < n; ++i) h = fold(h, v[i]) + mix(v[i], h); return clampi(h, 0, 7); }
int third(int a, int b) { return fold(a, b) + clampi(a, b, 100); }
