/* crunch: CRC-32, sorting and matrix multiplication on generated data. Meant to be
 * cross-compiled for aarch64 and run under qemu; prints results a person can check. */
#include "kernels.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSORT 20000
#define NMAT 24

static const char *arch(void) {
#if defined(__aarch64__)
  return "aarch64";
#elif defined(__x86_64__)
  return "x86_64";
#else
  return "other";
#endif
}

int main(void) {
  printf("crunch built for %s\n", arch());

  const char *text = "The quick brown fox jumps over the lazy dog";
  printf("crc32(\"123456789\") = %08" PRIx32 " (expect cbf43926)\n", crc32("123456789", 9));
  printf("crc32(fox)         = %08" PRIx32 "\n", crc32(text, strlen(text)));

  uint32_t seed = 2463534242u;
  uint32_t *v = malloc(NSORT * sizeof *v);
  if (!v)
    return 1;
  for (size_t i = 0; i < NSORT; i++)
    v[i] = rng_next(&seed) % 1000000u;
  sort_u32(v, NSORT);
  size_t bad = 0;
  for (size_t i = 1; i < NSORT; i++)
    bad += v[i - 1] > v[i];
  printf("sorted %d values: min %" PRIu32 ", median %" PRIu32 ", max %" PRIu32
         ", out of order %zu, crc %08" PRIx32 "\n",
         NSORT, v[0], v[NSORT / 2], v[NSORT - 1], bad, crc32(v, NSORT * sizeof *v));
  free(v);

  static int32_t a[NMAT * NMAT], b[NMAT * NMAT], c[NMAT * NMAT];
  for (size_t i = 0; i < NMAT * NMAT; i++) {
    a[i] = (int32_t)(rng_next(&seed) % 201) - 100;
    b[i] = (int32_t)(rng_next(&seed) % 201) - 100;
  }
  matmul(a, b, c, NMAT);
  int64_t trace = 0;
  for (size_t i = 0; i < NMAT; i++)
    trace += c[i * NMAT + i];
  printf("matmul %dx%d: trace %" PRId64 ", c[0][0] %" PRId32 ", crc %08" PRIx32 "\n", NMAT,
         NMAT, trace, c[0], crc32(c, sizeof c));
  return bad != 0;
}
