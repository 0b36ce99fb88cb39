#include "kernels.h"

/* xorshift32: tiny, fast, and identical on every target. */
uint32_t rng_next(uint32_t *state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

/* Reflected CRC-32 (IEEE 802.3), table built on first use. */
uint32_t crc32(const void *data, size_t n) {
  static uint32_t table[256];
  if (!table[1]) {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int k = 0; k < 8; k++)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
  }
  const unsigned char *p = data;
  uint32_t crc = 0xFFFFFFFFu;
  while (n--)
    crc = table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

static void sift_down(uint32_t *v, size_t root, size_t n) {
  for (size_t child; (child = 2 * root + 1) < n; root = child) {
    if (child + 1 < n && v[child + 1] > v[child])
      child++;
    if (v[root] >= v[child])
      return;
    uint32_t t = v[root];
    v[root] = v[child];
    v[child] = t;
  }
}

/* Heapsort: in place, no recursion, O(n log n) worst case. */
void sort_u32(uint32_t *v, size_t n) {
  for (size_t i = n / 2; i-- > 0;)
    sift_down(v, i, n);
  for (size_t end = n; end-- > 1;) {
    uint32_t t = v[0];
    v[0] = v[end];
    v[end] = t;
    sift_down(v, 0, end);
  }
}

void matmul(const int32_t *a, const int32_t *b, int32_t *c, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      uint32_t sum = 0;  /* unsigned: wrap-around instead of signed overflow */
      for (size_t k = 0; k < n; k++)
        sum += (uint32_t)a[i * n + k] * (uint32_t)b[k * n + j];
      c[i * n + j] = (int32_t)sum;
    }
}
