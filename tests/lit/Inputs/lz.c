/* lz.c: an LZ77 compressor with a hash-chain match finder, a byte RLE codec, and CRC32
 * (table-driven, table built at startup) to check round trips.
 *
 * Size-optimizer interest: tight byte loops, bit manipulation, a 1 KiB static table, inner
 * loops that vectorizers and unrollers like, and two codecs with near-identical framing.
 * Prints compressed sizes and checksums for several synthetic inputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- CRC32 (IEEE 802.3, reflected). ---- */

static uint32_t CrcTable[256];

static void crcInit(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++)
      c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    CrcTable[i] = c;
  }
}

static uint32_t crc32(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++)
    c = CrcTable[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

/* ---- Output buffer. ---- */

struct Buf {
  uint8_t *data;
  size_t len, cap;
};

static void bufPut(struct Buf *b, uint8_t v) {
  if (b->len == b->cap) {
    b->cap = b->cap ? b->cap * 2 : 256;
    b->data = realloc(b->data, b->cap);
    if (!b->data) { perror("realloc"); exit(1); }
  }
  b->data[b->len++] = v;
}

static void bufPutVarint(struct Buf *b, uint32_t v) {
  while (v >= 0x80) {
    bufPut(b, (uint8_t)(v | 0x80));
    v >>= 7;
  }
  bufPut(b, (uint8_t)v);
}

static int getVarint(const uint8_t *p, size_t n, size_t *pos, uint32_t *out) {
  uint32_t v = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (*pos >= n) return 0;
    uint8_t byte = p[(*pos)++];
    v |= (uint32_t)(byte & 0x7F) << shift;
    if (!(byte & 0x80)) { *out = v; return 1; }
  }
  return 0;
}

/* ---- RLE: [count-1][byte] for runs, [0x80|len-1][bytes...] for literals. ---- */

static void rleEncode(const uint8_t *in, size_t n, struct Buf *out) {
  size_t i = 0;
  while (i < n) {
    size_t run = 1;
    while (i + run < n && run < 128 && in[i + run] == in[i]) run++;
    if (run >= 3) {
      bufPut(out, (uint8_t)(run - 1));
      bufPut(out, in[i]);
      i += run;
      continue;
    }
    size_t lit = 0;
    while (i + lit < n && lit < 128) {
      if (i + lit + 2 < n && in[i + lit] == in[i + lit + 1] && in[i + lit] == in[i + lit + 2])
        break;
      lit++;
    }
    bufPut(out, (uint8_t)(0x80 | (lit - 1)));
    for (size_t k = 0; k < lit; k++) bufPut(out, in[i + k]);
    i += lit;
  }
}

static int rleDecode(const uint8_t *in, size_t n, struct Buf *out) {
  size_t i = 0;
  while (i < n) {
    uint8_t h = in[i++];
    size_t len = (size_t)(h & 0x7F) + 1;
    if (h & 0x80) {
      if (i + len > n) return 0;
      for (size_t k = 0; k < len; k++) bufPut(out, in[i + k]);
      i += len;
    } else {
      if (i >= n) return 0;
      for (size_t k = 0; k < len; k++) bufPut(out, in[i]);
      i++;
    }
  }
  return 1;
}

/* ---- LZ77: tokens are varint(literal count), literals, varint(match len), varint(dist). ---- */

#define WINDOW 4096
#define MIN_MATCH 4
#define MAX_MATCH 258
#define HASH_BITS 12
#define MAX_CHAIN 32

static uint32_t hash4(const uint8_t *p) {
  uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  return (v * 2654435761u) >> (32 - HASH_BITS);
}

static void lzEncode(const uint8_t *in, size_t n, struct Buf *out) {
  int32_t *head = malloc(sizeof(int32_t) << HASH_BITS);
  int32_t *prev = malloc(sizeof(int32_t) * (n ? n : 1));
  if (!head || !prev) { perror("malloc"); exit(1); }
  for (size_t i = 0; i < ((size_t)1 << HASH_BITS); i++) head[i] = -1;
  bufPutVarint(out, (uint32_t)n);
  size_t i = 0, litStart = 0;
  while (i < n) {
    size_t bestLen = 0, bestDist = 0;
    if (i + MIN_MATCH <= n) {
      uint32_t h = hash4(in + i);
      int32_t cand = head[h];
      for (int chain = 0; cand >= 0 && chain < MAX_CHAIN; chain++, cand = prev[cand]) {
        size_t dist = i - (size_t)cand;
        if (dist > WINDOW) break;
        size_t len = 0;
        while (i + len < n && len < MAX_MATCH && in[cand + len] == in[i + len]) len++;
        if (len > bestLen) { bestLen = len; bestDist = dist; }
      }
      prev[i] = head[h];
      head[h] = (int32_t)i;
    }
    if (bestLen >= MIN_MATCH) {
      bufPutVarint(out, (uint32_t)(i - litStart));
      for (size_t k = litStart; k < i; k++) bufPut(out, in[k]);
      bufPutVarint(out, (uint32_t)bestLen);
      bufPutVarint(out, (uint32_t)bestDist);
      /* Insert the skipped positions into the chains too. */
      for (size_t k = i + 1; k < i + bestLen && k + MIN_MATCH <= n; k++) {
        uint32_t h = hash4(in + k);
        prev[k] = head[h];
        head[h] = (int32_t)k;
      }
      i += bestLen;
      litStart = i;
    } else {
      i++;
    }
  }
  bufPutVarint(out, (uint32_t)(n - litStart));
  for (size_t k = litStart; k < n; k++) bufPut(out, in[k]);
  free(head);
  free(prev);
}

static int lzDecode(const uint8_t *in, size_t n, struct Buf *out) {
  size_t pos = 0;
  uint32_t total;
  if (!getVarint(in, n, &pos, &total)) return 0;
  while (out->len < total) {
    uint32_t lits, len, dist;
    if (!getVarint(in, n, &pos, &lits) || pos + lits > n) return 0;
    for (uint32_t k = 0; k < lits; k++) bufPut(out, in[pos + k]);
    pos += lits;
    if (out->len == total) break;
    if (!getVarint(in, n, &pos, &len) || !getVarint(in, n, &pos, &dist)) return 0;
    if (dist == 0 || dist > out->len) return 0;
    for (uint32_t k = 0; k < len; k++) bufPut(out, out->data[out->len - dist]);
  }
  return out->len == total;
}

/* ---- Test inputs. ---- */

static void makeInput(int kind, uint8_t *p, size_t n) {
  uint32_t s = 0x9E3779B9u * (uint32_t)(kind + 1);
  static const char Text[] = "the quick brown fox jumps over the lazy dog; ";
  for (size_t i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    switch (kind) {
    case 0: p[i] = (uint8_t)(s >> 24); break;                        /* noise */
    case 1: p[i] = (uint8_t)((i / 37) & 3); break;                   /* long runs */
    case 2: p[i] = (uint8_t)Text[(i + (s >> 30)) % (sizeof Text - 1)]; break; /* text-like */
    case 3: p[i] = (uint8_t)(i * i >> 5); break;                     /* pattern */
    default: p[i] = 0; break;                                        /* zeros */
    }
  }
}

int main(void) {
  crcInit();
  static const char *const Kinds[] = {"noise", "runs", "text", "pattern", "zeros"};
  const size_t N = 20000;
  uint8_t *input = malloc(N);
  if (!input) return 1;
  uint32_t all = 0;
  for (int kind = 0; kind < 5; kind++) {
    makeInput(kind, input, N);
    struct Buf lz = {0}, rle = {0}, back1 = {0}, back2 = {0};
    lzEncode(input, N, &lz);
    rleEncode(input, N, &rle);
    int ok1 = lzDecode(lz.data, lz.len, &back1) && back1.len == N &&
              memcmp(back1.data, input, N) == 0;
    int ok2 = rleDecode(rle.data, rle.len, &back2) && back2.len == N &&
              memcmp(back2.data, input, N) == 0;
    uint32_t c = crc32(input, N);
    printf("%-8s crc %08x lz %6zu (%s) rle %6zu (%s) lz-crc %08x\n", Kinds[kind], (unsigned)c,
           lz.len, ok1 ? "ok" : "BAD", rle.len, ok2 ? "ok" : "BAD",
           (unsigned)crc32(lz.data, lz.len));
    all ^= c + (uint32_t)lz.len * 7u + (uint32_t)rle.len;
    free(lz.data);
    free(rle.data);
    free(back1.data);
    free(back2.data);
  }
  printf("crc32(\"123456789\") = %08x\n", (unsigned)crc32((const uint8_t *)"123456789", 9));
  printf("combined %08x\n", (unsigned)all);
  free(input);
  return 0;
}
