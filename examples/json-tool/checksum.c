/* Checksums for integrity lines in the tool's output: CRC-32 (IEEE, as zlib and PNG),
 * Adler-32 (zlib), and FNV-1a, which the document model also uses for object keys. */
#include "jt.h"

static uint32_t crc_table[256];
static int crc_ready;

/* Built on first use rather than stored: 1 KiB of table costs more image than the loop. */
static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++)
      c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
  crc_ready = 1;
}

uint32_t jt_crc32(uint32_t crc, const void *p, size_t n) {
  const unsigned char *s = p;
  if (!crc_ready)
    crc_init();
  crc = ~crc;
  while (n--)
    crc = crc_table[(crc ^ *s++) & 0xff] ^ (crc >> 8);
  return ~crc;
}

uint32_t jt_adler32(uint32_t adler, const void *p, size_t n) {
  const unsigned char *s = p;
  uint32_t a = adler & 0xffff, b = adler >> 16;
  while (n) {
    /* 5552 bytes is the most that cannot overflow 32 bits before the reduction. */
    size_t chunk = n < 5552 ? n : 5552;
    n -= chunk;
    while (chunk--) {
      a += *s++;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (b << 16) | a;
}

uint32_t jt_fnv1a32(const void *p, size_t n) {
  const unsigned char *s = p;
  uint32_t h = 2166136261u;
  while (n--)
    h = (h ^ *s++) * 16777619u;
  return h;
}

uint64_t jt_fnv1a64(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 14695981039346656037ull;
  while (n--)
    h = (h ^ *s++) * 1099511628211ull;
  return h;
}
