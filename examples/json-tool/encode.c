/* Base64 (RFC 4648, padded) and hex, for carrying compressed documents in text. */
#include "jt.h"

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int jt_b64_encode(jt_buf *out, const void *p, size_t n) {
  const unsigned char *s = p;
  if (jt_buf_reserve(out, (n + 2) / 3 * 4))
    return -1;
  char *o = out->data + out->len;
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
    *o++ = b64_alphabet[v >> 18];
    *o++ = b64_alphabet[(v >> 12) & 63];
    *o++ = b64_alphabet[(v >> 6) & 63];
    *o++ = b64_alphabet[v & 63];
  }
  if (i < n) {
    uint32_t v = (uint32_t)s[i] << 16;
    if (i + 1 < n)
      v |= (uint32_t)s[i + 1] << 8;
    *o++ = b64_alphabet[v >> 18];
    *o++ = b64_alphabet[(v >> 12) & 63];
    *o++ = i + 1 < n ? b64_alphabet[(v >> 6) & 63] : '=';
    *o++ = '=';
  }
  out->len = (size_t)(o - out->data);
  return 0;
}

static int b64_value(int c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

/* Accepts line breaks and spaces anywhere (as pasted from a terminal); rejects anything
 * else that is not in the alphabet, and data after the padding. */
int jt_b64_decode(jt_buf *out, const char *s, size_t n) {
  uint32_t acc = 0;
  int bits = 0, pad = 0;
  for (size_t i = 0; i < n; i++) {
    int c = (unsigned char)s[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
      continue;
    if (c == '=') {
      pad++;
      continue;
    }
    int v = b64_value(c);
    if (v < 0 || pad)
      return -1;
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (jt_buf_putc(out, (int)((acc >> bits) & 0xff)))
        return -1;
    }
  }
  return pad > 2 ? -1 : 0;
}

int jt_hex_encode(jt_buf *out, const void *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  const unsigned char *s = p;
  if (jt_buf_reserve(out, 2 * n))
    return -1;
  for (size_t i = 0; i < n; i++) {
    out->data[out->len++] = digits[s[i] >> 4];
    out->data[out->len++] = digits[s[i] & 15];
  }
  return 0;
}

static int hex_value(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c |= 0x20;
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

int jt_hex_decode(jt_buf *out, const char *s, size_t n) {
  if (n % 2)
    return -1;
  for (size_t i = 0; i < n; i += 2) {
    int hi = hex_value((unsigned char)s[i]), lo = hex_value((unsigned char)s[i + 1]);
    if (hi < 0 || lo < 0 || jt_buf_putc(out, hi << 4 | lo))
      return -1;
  }
  return 0;
}
