/* LZ77 compression in the style of LZ4: a stream is the original length (varint), then
 * tokens. A token byte holds the literal count (high nibble) and the match length minus 4
 * (low nibble); 15 in either means more length follows as bytes of 255 and a last byte below
 * it. Literals follow the token, then a 16-bit little-endian offset back into the output,
 * except for the last token, which has literals only. JSON compresses well with it: keys
 * repeat. */
#include "jt.h"

#include <stdlib.h>
#include <string.h>

enum { MIN_MATCH = 4, WINDOW = 65535, HASH_BITS = 12, CHAIN_DEPTH = 16 };

static uint32_t read32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned hash4(const unsigned char *p) {
  return (read32(p) * 2654435761u) >> (32 - HASH_BITS);
}

static int put_varint(jt_buf *out, size_t v) {
  while (v >= 0x80) {
    if (jt_buf_putc(out, (int)(v & 0x7f) | 0x80))
      return -1;
    v >>= 7;
  }
  return jt_buf_putc(out, (int)v);
}

static int get_varint(const unsigned char **p, const unsigned char *end, size_t *v) {
  size_t r = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    unsigned c = *(*p)++;
    r |= (size_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) {
      *v = r;
      return 0;
    }
  }
  return -1;
}

static int put_length(jt_buf *out, size_t n) {
  while (n >= 255) {
    if (jt_buf_putc(out, 255))
      return -1;
    n -= 255;
  }
  return jt_buf_putc(out, (int)n);
}

static int emit(jt_buf *out, const unsigned char *lit, size_t nlit, size_t mlen, size_t off) {
  int token = (nlit < 15 ? (int)nlit : 15) << 4;
  if (mlen)
    token |= mlen - MIN_MATCH < 15 ? (int)(mlen - MIN_MATCH) : 15;
  if (jt_buf_putc(out, token))
    return -1;
  if (nlit >= 15 && put_length(out, nlit - 15))
    return -1;
  if (jt_buf_put(out, lit, nlit))
    return -1;
  if (!mlen)
    return 0;
  if (jt_buf_putc(out, (int)(off & 0xff)) || jt_buf_putc(out, (int)(off >> 8)))
    return -1;
  if (mlen - MIN_MATCH >= 15 && put_length(out, mlen - MIN_MATCH - 15))
    return -1;
  return 0;
}

int jt_lz_compress(jt_buf *out, const void *src, size_t n) {
  const unsigned char *s = src;
  if (n > INT32_MAX) /* positions are kept as int32_t */
    return -1;
  int32_t head[1 << HASH_BITS];
  int32_t *prev = n ? malloc(n * sizeof *prev) : NULL;
  if (n && !prev)
    return -1;
  for (size_t i = 0; i < (size_t)1 << HASH_BITS; i++)
    head[i] = -1;
  int rc = put_varint(out, n);
  size_t anchor = 0, i = 0;
  while (rc == 0 && i + MIN_MATCH <= n) {
    unsigned h = hash4(s + i);
    size_t best_len = 0, best_off = 0;
    int depth = CHAIN_DEPTH;
    for (int32_t cand = head[h]; cand >= 0 && depth--; cand = prev[cand]) {
      size_t off = i - (size_t)cand;
      if (off > WINDOW)
        break;
      size_t len = 0;
      while (i + len < n && s[cand + len] == s[i + len])
        len++;
      if (len > best_len) {
        best_len = len;
        best_off = off;
      }
    }
    prev[i] = head[h];
    head[h] = (int32_t)i;
    if (best_len < MIN_MATCH) {
      i++;
      continue;
    }
    rc = emit(out, s + anchor, i - anchor, best_len, best_off);
    /* Index the matched bytes too, so later repeats can refer into them. */
    for (size_t end = i + best_len, j = i + 1; j < end && j + MIN_MATCH <= n; j++) {
      unsigned hj = hash4(s + j);
      prev[j] = head[hj];
      head[hj] = (int32_t)j;
    }
    i += best_len;
    anchor = i;
  }
  if (rc == 0)
    rc = emit(out, s + anchor, n - anchor, 0, 0);
  free(prev);
  return rc;
}

static int get_length(const unsigned char **p, const unsigned char *end, size_t *n) {
  unsigned c;
  do {
    if (*p >= end)
      return -1;
    c = *(*p)++;
    *n += c;
  } while (c == 255);
  return 0;
}

int jt_lz_decompress(jt_buf *out, const void *src, size_t n) {
  const unsigned char *p = src, *end = p + n;
  size_t total;
  if (get_varint(&p, end, &total) || jt_buf_reserve(out, total))
    return -1;
  size_t start = out->len, limit = start + total;
  for (;;) {
    if (p >= end)
      return -1;
    unsigned token = *p++;
    size_t nlit = token >> 4, mlen = token & 15;
    if (nlit == 15 && get_length(&p, end, &nlit))
      return -1;
    if (nlit > (size_t)(end - p) || nlit > limit - out->len)
      return -1;
    memcpy(out->data + out->len, p, nlit);
    out->len += nlit;
    p += nlit;
    if (p == end)
      break; /* the last token: literals only */
    if (end - p < 2)
      return -1;
    size_t off = (size_t)p[0] | (size_t)p[1] << 8;
    p += 2;
    if (mlen == 15 && get_length(&p, end, &mlen))
      return -1;
    mlen += MIN_MATCH;
    if (off == 0 || off > out->len - start || mlen > limit - out->len)
      return -1;
    /* Byte by byte: a match may overlap the bytes it produces (a run). */
    char *d = out->data + out->len;
    const char *from = d - off;
    for (size_t k = 0; k < mlen; k++)
      d[k] = from[k];
    out->len += mlen;
  }
  return out->len == limit ? 0 : -1;
}
