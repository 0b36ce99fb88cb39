/* JSON writer: compact or indented, keys as written or sorted, and optionally pure ASCII
 * (everything else as \u escapes) for transports that mangle UTF-8. */
#include "jt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Integers print as integers; anything else in the fewest digits that read back to the same
 * double, so that parse-then-write is stable. NaN and infinities have no JSON form: null. */
int jt_write_number(jt_buf *out, double x) {
  if (isnan(x) || isinf(x))
    return jt_buf_puts(out, "null");
  if (x == floor(x) && fabs(x) < 1e17)
    return jt_buf_printf(out, "%.0f", x == 0 ? 0.0 : x);
  char text[32];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(text, sizeof text, "%.*g", prec, x);
    if (strtod(text, NULL) == x)
      break;
  }
  return jt_buf_puts(out, text);
}

static int put_u_escape(jt_buf *out, uint32_t cp) {
  if (cp >= 0x10000) {
    cp -= 0x10000;
    return jt_buf_printf(out, "\\u%04x\\u%04x", 0xd800 + (unsigned)(cp >> 10),
                         0xdc00 + (unsigned)(cp & 0x3ff));
  }
  return jt_buf_printf(out, "\\u%04x", (unsigned)cp);
}

int jt_write_string(jt_buf *out, const char *s, size_t n, int flags) {
  const unsigned char *p = (const unsigned char *)s, *end = p + n;
  if (jt_buf_putc(out, '"'))
    return -1;
  while (p < end) {
    const unsigned char *run = p;
    while (p < end && *p >= 0x20 && *p != '"' && *p != '\\' &&
           (*p < 0x80 || !(flags & JT_ASCII)))
      p++;
    if (jt_buf_put(out, run, (size_t)(p - run)))
      return -1;
    if (p >= end)
      break;
    int rc;
    switch (*p) {
    case '"': rc = jt_buf_puts(out, "\\\""); break;
    case '\\': rc = jt_buf_puts(out, "\\\\"); break;
    case '\b': rc = jt_buf_puts(out, "\\b"); break;
    case '\f': rc = jt_buf_puts(out, "\\f"); break;
    case '\n': rc = jt_buf_puts(out, "\\n"); break;
    case '\r': rc = jt_buf_puts(out, "\\r"); break;
    case '\t': rc = jt_buf_puts(out, "\\t"); break;
    default:
      if (*p < 0x20) {
        rc = put_u_escape(out, *p);
      } else {
        uint32_t cp;
        int k = jt_utf8_decode(p, (size_t)(end - p), &cp);
        if (k < 0) { /* not UTF-8: escape the byte as the code point it would be in Latin-1 */
          cp = *p;
          k = 1;
        }
        rc = put_u_escape(out, cp);
        p += k - 1;
      }
    }
    if (rc)
      return -1;
    p++;
  }
  return jt_buf_putc(out, '"');
}

typedef struct {
  jt_buf *out;
  int flags;
} writer;

static int newline(writer *w, int depth) {
  if (!(w->flags & JT_PRETTY))
    return 0;
  if (jt_buf_putc(w->out, '\n'))
    return -1;
  return jt_buf_repeat(w->out, ' ', (size_t)depth * 2);
}

typedef struct {
  const char *key;
  size_t klen, pos;
} keyref;

static int cmp_keys(const void *pa, const void *pb) {
  const keyref *a = pa, *b = pb;
  int c = memcmp(a->key, b->key, a->klen < b->klen ? a->klen : b->klen);
  if (c)
    return c;
  return a->klen < b->klen ? -1 : a->klen > b->klen;
}

static int write_value(writer *w, const jt_value *v, int depth);

static int write_object(writer *w, const jt_value *v, int depth) {
  size_t n = jt_length(v);
  if (n == 0)
    return jt_buf_puts(w->out, "{}");
  keyref *order = malloc(n * sizeof *order);
  if (!order)
    return -1;
  for (size_t i = 0; i < n; i++) {
    order[i].key = jt_key_at(v, i, &order[i].klen);
    order[i].pos = i;
  }
  if (w->flags & JT_SORT_KEYS)
    qsort(order, n, sizeof *order, cmp_keys);
  int rc = jt_buf_putc(w->out, '{');
  for (size_t i = 0; rc == 0 && i < n; i++) {
    if (i)
      rc = jt_buf_putc(w->out, ',');
    if (!rc)
      rc = newline(w, depth + 1);
    if (!rc)
      rc = jt_write_string(w->out, order[i].key, order[i].klen, w->flags);
    if (!rc)
      rc = jt_buf_puts(w->out, (w->flags & JT_PRETTY) ? ": " : ":");
    if (!rc)
      rc = write_value(w, jt_value_at(v, order[i].pos), depth + 1);
  }
  free(order);
  if (!rc)
    rc = newline(w, depth);
  return rc ? rc : jt_buf_putc(w->out, '}');
}

static int write_array(writer *w, const jt_value *v, int depth) {
  size_t n = jt_length(v);
  if (n == 0)
    return jt_buf_puts(w->out, "[]");
  int rc = jt_buf_putc(w->out, '[');
  for (size_t i = 0; rc == 0 && i < n; i++) {
    if (i)
      rc = jt_buf_putc(w->out, ',');
    if (!rc)
      rc = newline(w, depth + 1);
    if (!rc)
      rc = write_value(w, jt_at(v, i), depth + 1);
  }
  if (!rc)
    rc = newline(w, depth);
  return rc ? rc : jt_buf_putc(w->out, ']');
}

static int write_value(writer *w, const jt_value *v, int depth) {
  switch (jt_typeof(v)) {
  case JT_NULL:
    return jt_buf_puts(w->out, "null");
  case JT_FALSE:
    return jt_buf_puts(w->out, "false");
  case JT_TRUE:
    return jt_buf_puts(w->out, "true");
  case JT_NUMBER:
    return jt_write_number(w->out, jt_number(v));
  case JT_STRING: {
    size_t n;
    const char *s = jt_string(v, &n);
    return jt_write_string(w->out, s, n, w->flags);
  }
  case JT_ARRAY:
    return write_array(w, v, depth);
  case JT_OBJECT:
    return write_object(w, v, depth);
  }
  return -1;
}

int jt_write(jt_buf *out, const jt_value *v, int flags) {
  writer w = {out, flags};
  return write_value(&w, v, 0);
}
