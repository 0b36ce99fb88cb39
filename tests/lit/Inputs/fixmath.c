/* fixmath.c: Q16.16 fixed-point arithmetic and numeric kernels: matrix multiply, LU solve,
 * a CORDIC sine/cosine, Newton square root, a FIR filter and a 2D box blur.
 *
 * Size-optimizer interest: counted loops (unrolling, vectorization), 64-bit intermediate
 * multiplies, saturation branches, and small inlinable helpers used everywhere.
 * Everything is integer arithmetic, so the output is bit-exact on every target. */
#include <stdint.h>
#include <stdio.h>

typedef int32_t fix;
#define FRAC 16
#define ONE ((fix)1 << FRAC)
#define FIX(x) ((fix)((x) * 65536.0))

static fix sat(int64_t v) {
  if (v > INT32_MAX) return INT32_MAX;
  if (v < INT32_MIN) return INT32_MIN;
  return (fix)v;
}

static fix fmul(fix a, fix b) { return sat(((int64_t)a * b) >> FRAC); }
static fix fdiv(fix a, fix b) {
  if (b == 0) return a >= 0 ? INT32_MAX : INT32_MIN;
  return sat(((int64_t)a * ONE) / b);
}
static fix fadd(fix a, fix b) { return sat((int64_t)a + b); }
static fix fsub(fix a, fix b) { return sat((int64_t)a - b); }
static fix fabsx(fix a) { return a < 0 ? -a : a; }

/* Prints a fixed-point value with 4 decimals, without floating point. */
static void putfix(fix v) {
  int64_t x = v;
  if (x < 0) { putchar('-'); x = -x; }
  int64_t ip = x >> FRAC;
  int64_t fp = ((x & (ONE - 1)) * 10000 + ONE / 2) >> FRAC;
  if (fp >= 10000) { ip++; fp -= 10000; }
  printf("%lld.%04lld", (long long)ip, (long long)fp);
}

/* ---- Square root (Newton) and CORDIC. ---- */

static fix fsqrt(fix a) {
  if (a <= 0) return 0;
  fix x = a > ONE ? a / 2 : ONE;
  for (int i = 0; i < 20; i++) {
    fix nx = (x + fdiv(a, x)) / 2;
    if (fabsx(nx - x) <= 1) return nx;
    x = nx;
  }
  return x;
}

/* atan(2^-i) in Q16.16. */
static const fix AtanTable[16] = {
  51472, 30386, 16055, 8150, 4091, 2047, 1024, 512, 256, 128, 64, 32, 16, 8, 4, 2,
};
#define CORDIC_K 39797 /* 0.607253 */
#define HALF_PI 102944

static void cordic(fix angle, fix *s, fix *c) {
  /* Reduce to [-pi/2, pi/2]. */
  int flip = 0;
  while (angle > HALF_PI) { angle -= 2 * HALF_PI; flip ^= 1; }
  while (angle < -HALF_PI) { angle += 2 * HALF_PI; flip ^= 1; }
  fix x = CORDIC_K, y = 0, z = angle;
  for (int i = 0; i < 16; i++) {
    fix dx = x >> i, dy = y >> i;
    if (z >= 0) { x -= dy; y += dx; z -= AtanTable[i]; }
    else        { x += dy; y -= dx; z += AtanTable[i]; }
  }
  *s = flip ? -y : y;
  *c = flip ? -x : x;
}

/* ---- Matrices. ---- */

#define N 6

static void matmul(fix out[N][N], fix a[N][N], fix b[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int64_t acc = 0;
      for (int k = 0; k < N; k++) acc += (int64_t)a[i][k] * b[k][j];
      out[i][j] = sat(acc >> FRAC);
    }
}

/* Gaussian elimination with partial pivoting; returns 0 if singular. */
static int solve(fix m[N][N], fix rhs[N], fix x[N]) {
  fix a[N][N + 1];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) a[i][j] = m[i][j];
    a[i][N] = rhs[i];
  }
  for (int col = 0; col < N; col++) {
    int piv = col;
    for (int r = col + 1; r < N; r++)
      if (fabsx(a[r][col]) > fabsx(a[piv][col])) piv = r;
    if (a[piv][col] == 0) return 0;
    if (piv != col)
      for (int j = 0; j <= N; j++) { fix t = a[col][j]; a[col][j] = a[piv][j]; a[piv][j] = t; }
    for (int r = col + 1; r < N; r++) {
      fix f = fdiv(a[r][col], a[col][col]);
      for (int j = col; j <= N; j++) a[r][j] = fsub(a[r][j], fmul(f, a[col][j]));
    }
  }
  for (int i = N - 1; i >= 0; i--) {
    fix s = a[i][N];
    for (int j = i + 1; j < N; j++) s = fsub(s, fmul(a[i][j], x[j]));
    x[i] = fdiv(s, a[i][i]);
  }
  return 1;
}

/* ---- Signal processing. ---- */

static void fir(const fix *in, fix *out, int n, const fix *taps, int ntaps) {
  for (int i = 0; i < n; i++) {
    int64_t acc = 0;
    for (int t = 0; t < ntaps; t++)
      if (i - t >= 0) acc += (int64_t)in[i - t] * taps[t];
    out[i] = sat(acc >> FRAC);
  }
}

#define W 24
#define H 16
static void boxBlur(const uint8_t src[H][W], uint8_t dst[H][W]) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      unsigned sum = 0, cnt = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int yy = y + dy, xx = x + dx;
          if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
          sum += src[yy][xx];
          cnt++;
        }
      dst[y][x] = (uint8_t)((sum + cnt / 2) / cnt);
    }
}

int main(void) {
  printf("sqrt: ");
  for (int v = 0; v <= 10; v += 2) { putfix(fsqrt(v * ONE)); putchar(' '); }
  printf("\nsin/cos:\n");
  for (int deg = -180; deg <= 180; deg += 45) {
    fix s, c;
    cordic((fix)((int64_t)deg * 2 * HALF_PI / 180), &s, &c);
    printf("  %4d: ", deg);
    putfix(s);
    printf(" ");
    putfix(c);
    printf("\n");
  }

  fix a[N][N], b[N][N], p[N][N], rhs[N], x[N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (i == j) ? 4 * ONE : (fix)(((i * 7 + j * 3) % 5) * ONE / 4);
      b[i][j] = (fix)((i + 1) * ONE / (j + 2));
    }
  matmul(p, a, b);
  int64_t trace = 0;
  for (int i = 0; i < N; i++) trace += p[i][i];
  printf("trace(A*B) = ");
  putfix(sat(trace));
  printf("\n");
  for (int i = 0; i < N; i++) rhs[i] = (fix)((i + 1) * ONE);
  if (solve(a, rhs, x)) {
    printf("solve:");
    for (int i = 0; i < N; i++) { putchar(' '); putfix(x[i]); }
    printf("\n");
  }

  fix sig[32], filt[32];
  static const fix Taps[5] = {FIX(0.1), FIX(0.2), FIX(0.4), FIX(0.2), FIX(0.1)};
  for (int i = 0; i < 32; i++) {
    fix s, c;
    cordic((fix)(i * ONE / 3), &s, &c);
    sig[i] = fadd(s, (i % 4 == 0) ? ONE / 2 : 0);
  }
  fir(sig, filt, 32, Taps, 5);
  uint32_t h = 0;
  for (int i = 0; i < 32; i++) h = h * 16777619u ^ (uint32_t)filt[i];
  printf("fir hash %08x last ", (unsigned)h);
  putfix(filt[31]);
  printf("\n");

  static uint8_t img[H][W], out[H][W];
  for (int y = 0; y < H; y++)
    for (int xx = 0; xx < W; xx++) img[y][xx] = (uint8_t)(((xx ^ y) & 4) ? 200 : (xx * y) & 63);
  boxBlur(img, out);
  unsigned long total = 0;
  for (int y = 0; y < H; y++)
    for (int xx = 0; xx < W; xx++) total += out[y][xx] * (unsigned long)(y * W + xx + 1);
  printf("blur checksum %lu\n", total);
  return 0;
}
