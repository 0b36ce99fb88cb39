/* Growable byte buffer used by every part of the library for its output. */
#include "jt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void jt_buf_init(jt_buf *b) {
  b->data = NULL;
  b->len = b->cap = 0;
}

void jt_buf_free(jt_buf *b) {
  free(b->data);
  jt_buf_init(b);
}

void jt_buf_clear(jt_buf *b) { b->len = 0; }

int jt_buf_reserve(jt_buf *b, size_t extra) {
  if (extra < b->cap - b->len)
    return 0;
  size_t want = b->len + extra + 1, cap = b->cap ? b->cap : 64;
  while (cap < want) {
    if (cap > (size_t)-1 / 2)
      return -1;
    cap *= 2;
  }
  char *p = realloc(b->data, cap);
  if (!p)
    return -1;
  b->data = p;
  b->cap = cap;
  return 0;
}

int jt_buf_putc(jt_buf *b, int c) {
  if (jt_buf_reserve(b, 1))
    return -1;
  b->data[b->len++] = (char)c;
  return 0;
}

int jt_buf_put(jt_buf *b, const void *p, size_t n) {
  if (n == 0)
    return 0;
  if (jt_buf_reserve(b, n))
    return -1;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return 0;
}

int jt_buf_puts(jt_buf *b, const char *s) { return jt_buf_put(b, s, strlen(s)); }

int jt_buf_repeat(jt_buf *b, int c, size_t n) {
  if (jt_buf_reserve(b, n))
    return -1;
  memset(b->data + b->len, c, n);
  b->len += n;
  return 0;
}

int jt_buf_printf(jt_buf *b, const char *fmt, ...) {
  va_list ap;
  char small[128];
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return -1;
  if ((size_t)n < sizeof small)
    return jt_buf_put(b, small, (size_t)n);
  if (jt_buf_reserve(b, (size_t)n))
    return -1;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return 0;
}

/* Always NUL-terminated, even when empty, so callers can print it directly. */
const char *jt_buf_cstr(jt_buf *b) {
  if (jt_buf_reserve(b, 0))
    return "";
  b->data[b->len] = '\0';
  return b->data;
}

char *jt_buf_detach(jt_buf *b, size_t *len) {
  jt_buf_cstr(b);
  char *p = b->data;
  if (len)
    *len = b->len;
  jt_buf_init(b);
  return p;
}
