/* UTF-8 decoding and encoding, strict per RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF, so the parser can reject what other tools would choke on later. */
#include "jt.h"

/* Returns the length of the sequence at s (1-4) and stores its code point, or -1. */
int jt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
  if (n == 0)
    return -1;
  unsigned c = s[0];
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  int len;
  uint32_t min, v;
  if ((c & 0xe0) == 0xc0) {
    len = 2, min = 0x80, v = c & 0x1f;
  } else if ((c & 0xf0) == 0xe0) {
    len = 3, min = 0x800, v = c & 0x0f;
  } else if ((c & 0xf8) == 0xf0) {
    len = 4, min = 0x10000, v = c & 0x07;
  } else {
    return -1;
  }
  if (n < (size_t)len)
    return -1;
  for (int i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return -1;
    v = (v << 6) | (s[i] & 0x3f);
  }
  if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
    return -1;
  *cp = v;
  return len;
}

/* Writes cp as UTF-8 into out and returns its length, or 0 for an invalid code point. */
int jt_utf8_encode(uint32_t cp, char out[4]) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xc0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp >= 0xd800 && cp <= 0xdfff)
    return 0;
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  if (cp > 0x10ffff)
    return 0;
  out[0] = (char)(0xf0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

int jt_utf8_valid(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  uint32_t cp;
  while (n) {
    int k = jt_utf8_decode(p, n, &cp);
    if (k < 0)
      return 0;
    p += k;
    n -= (size_t)k;
  }
  return 1;
}

/* Code points in s; an invalid byte counts as one, as a terminal would show it. */
size_t jt_utf8_count(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  size_t count = 0;
  uint32_t cp;
  while (n) {
    int k = jt_utf8_decode(p, n, &cp);
    if (k < 0)
      k = 1;
    p += k;
    n -= (size_t)k;
    count++;
  }
  return count;
}
