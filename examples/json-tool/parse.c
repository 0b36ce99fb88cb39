/* JSON parser (RFC 8259): recursive descent into a document, strict about the grammar, with
 * the line and column of the first error, and a nesting limit so hostile input cannot
 * exhaust the stack. */
#include "jt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 256 };

typedef struct {
  jt_doc *doc;
  const char *s, *p, *end;
  jt_error *err;
  int depth;
  jt_buf scratch; /* decoded string contents */
} parser;

static void where(const parser *ps, const char *at, jt_error *e) {
  e->line = 1;
  e->col = 1;
  for (const char *q = ps->s; q < at; q++) {
    if (*q == '\n') {
      e->line++;
      e->col = 1;
    } else if (((unsigned char)*q & 0xc0) != 0x80) {
      e->col++; /* columns count characters, not bytes */
    }
  }
}

static jt_value *fail(parser *ps, const char *at, const char *msg) {
  if (ps->err && !ps->err->msg[0]) {
    where(ps, at, ps->err);
    snprintf(ps->err->msg, sizeof ps->err->msg, "%s", msg);
  }
  return NULL;
}

static void skip_ws(parser *ps) {
  while (ps->p < ps->end &&
         (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

static int literal(parser *ps, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
    return 0;
  ps->p += n;
  return 1;
}

static int hex4(const char *p, uint32_t *v) {
  *v = 0;
  for (int i = 0; i < 4; i++) {
    int c = (unsigned char)p[i], d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
      d = (c | 0x20) - 'a' + 10;
    else
      return -1;
    *v = *v << 4 | (uint32_t)d;
  }
  return 0;
}

/* Decodes the string at ps->p (after its opening quote) into ps->scratch. */
static int parse_string_body(parser *ps) {
  jt_buf_clear(&ps->scratch);
  for (;;) {
    const char *start = ps->p;
    while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
           (unsigned char)*ps->p >= 0x20 && (unsigned char)*ps->p < 0x80)
      ps->p++;
    if (jt_buf_put(&ps->scratch, start, (size_t)(ps->p - start)))
      return fail(ps, ps->p, "out of memory"), -1;
    if (ps->p >= ps->end)
      return fail(ps, ps->p, "unterminated string"), -1;
    unsigned char c = (unsigned char)*ps->p;
    if (c == '"') {
      ps->p++;
      return 0;
    }
    if (c < 0x20)
      return fail(ps, ps->p, "control character in string"), -1;
    if (c >= 0x80) {
      uint32_t cp;
      int k = jt_utf8_decode((const unsigned char *)ps->p, (size_t)(ps->end - ps->p), &cp);
      if (k < 0)
        return fail(ps, ps->p, "invalid UTF-8 in string"), -1;
      if (jt_buf_put(&ps->scratch, ps->p, (size_t)k))
        return fail(ps, ps->p, "out of memory"), -1;
      ps->p += k;
      continue;
    }
    /* A backslash escape. */
    const char *esc = ps->p++;
    if (ps->p >= ps->end)
      return fail(ps, esc, "unterminated escape"), -1;
    char out;
    switch (*ps->p++) {
    case '"': out = '"'; break;
    case '\\': out = '\\'; break;
    case '/': out = '/'; break;
    case 'b': out = '\b'; break;
    case 'f': out = '\f'; break;
    case 'n': out = '\n'; break;
    case 'r': out = '\r'; break;
    case 't': out = '\t'; break;
    case 'u': {
      uint32_t cp, lo;
      if (ps->end - ps->p < 4 || hex4(ps->p, &cp))
        return fail(ps, esc, "bad \\u escape"), -1;
      ps->p += 4;
      if (cp >= 0xdc00 && cp <= 0xdfff)
        return fail(ps, esc, "lone low surrogate"), -1;
      if (cp >= 0xd800 && cp <= 0xdbff) {
        if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
            hex4(ps->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
          return fail(ps, esc, "unpaired high surrogate"), -1;
        ps->p += 6;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      }
      char utf8[4];
      int k = jt_utf8_encode(cp, utf8);
      if (jt_buf_put(&ps->scratch, utf8, (size_t)k))
        return fail(ps, esc, "out of memory"), -1;
      continue;
    }
    default:
      return fail(ps, esc, "unknown escape"), -1;
    }
    if (jt_buf_putc(&ps->scratch, out))
      return fail(ps, esc, "out of memory"), -1;
  }
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The grammar is checked here; strtod only converts what is known to be a JSON number. */
static jt_value *parse_number(parser *ps) {
  const char *start = ps->p, *p = ps->p;
  if (p < ps->end && *p == '-')
    p++;
  if (p >= ps->end || !is_digit(*p))
    return fail(ps, start, "invalid number");
  if (*p == '0')
    p++;
  else
    while (p < ps->end && is_digit(*p))
      p++;
  if (p < ps->end && *p == '.') {
    p++;
    if (p >= ps->end || !is_digit(*p))
      return fail(ps, p, "digit expected after '.'");
    while (p < ps->end && is_digit(*p))
      p++;
  }
  if (p < ps->end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < ps->end && (*p == '+' || *p == '-'))
      p++;
    if (p >= ps->end || !is_digit(*p))
      return fail(ps, p, "digit expected in exponent");
    while (p < ps->end && is_digit(*p))
      p++;
  }
  char small[64], *text = small;
  size_t n = (size_t)(p - start);
  if (n >= sizeof small && !(text = malloc(n + 1)))
    return fail(ps, start, "out of memory");
  memcpy(text, start, n);
  text[n] = '\0';
  double x = strtod(text, NULL);
  if (text != small)
    free(text);
  ps->p = p;
  return jt_new_number(ps->doc, x);
}

static jt_value *parse_value(parser *ps);

static jt_value *parse_array(parser *ps) {
  jt_value *arr = jt_new_array(ps->doc);
  ps->p++;
  skip_ws(ps);
  if (ps->p < ps->end && *ps->p == ']') {
    ps->p++;
    return arr;
  }
  for (;;) {
    jt_value *v = parse_value(ps);
    if (!v)
      return NULL;
    if (jt_array_push(ps->doc, arr, v))
      return fail(ps, ps->p, "out of memory");
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ',') {
      ps->p++;
      continue;
    }
    if (ps->p < ps->end && *ps->p == ']') {
      ps->p++;
      return arr;
    }
    return fail(ps, ps->p, "',' or ']' expected");
  }
}

static jt_value *parse_object(parser *ps) {
  jt_value *obj = jt_new_object(ps->doc);
  ps->p++;
  skip_ws(ps);
  if (ps->p < ps->end && *ps->p == '}') {
    ps->p++;
    return obj;
  }
  for (;;) {
    skip_ws(ps);
    if (ps->p >= ps->end || *ps->p != '"')
      return fail(ps, ps->p, "string key expected");
    ps->p++;
    if (parse_string_body(ps))
      return NULL;
    /* The key is copied by jt_object_set; the scratch buffer is reused by the value. */
    size_t klen = ps->scratch.len;
    char *key = jt_doc_alloc(ps->doc, klen + 1);
    if (!key)
      return fail(ps, ps->p, "out of memory");
    if (klen)
      memcpy(key, ps->scratch.data, klen);
    skip_ws(ps);
    if (ps->p >= ps->end || *ps->p != ':')
      return fail(ps, ps->p, "':' expected");
    ps->p++;
    jt_value *v = parse_value(ps);
    if (!v)
      return NULL;
    if (jt_object_set(ps->doc, obj, key, klen, v))
      return fail(ps, ps->p, "out of memory");
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ',') {
      ps->p++;
      continue;
    }
    if (ps->p < ps->end && *ps->p == '}') {
      ps->p++;
      return obj;
    }
    return fail(ps, ps->p, "',' or '}' expected");
  }
}

static jt_value *parse_value(parser *ps) {
  skip_ws(ps);
  if (ps->p >= ps->end)
    return fail(ps, ps->p, "unexpected end of input");
  if (++ps->depth > MAX_DEPTH)
    return fail(ps, ps->p, "nesting too deep");
  jt_value *v;
  switch (*ps->p) {
  case '{':
    v = parse_object(ps);
    break;
  case '[':
    v = parse_array(ps);
    break;
  case '"':
    ps->p++;
    v = parse_string_body(ps) ? NULL
                              : jt_new_string(ps->doc, ps->scratch.data ? ps->scratch.data : "",
                                              ps->scratch.len);
    break;
  case 't':
    v = literal(ps, "true") ? jt_new_bool(ps->doc, 1) : fail(ps, ps->p, "invalid literal");
    break;
  case 'f':
    v = literal(ps, "false") ? jt_new_bool(ps->doc, 0) : fail(ps, ps->p, "invalid literal");
    break;
  case 'n':
    v = literal(ps, "null") ? jt_new_null(ps->doc) : fail(ps, ps->p, "invalid literal");
    break;
  default:
    v = (*ps->p == '-' || is_digit(*ps->p)) ? parse_number(ps)
                                            : fail(ps, ps->p, "value expected");
  }
  ps->depth--;
  return v;
}

jt_value *jt_parse(jt_doc *d, const char *text, size_t len, jt_error *err) {
  parser ps = {d, text, text, text + len, err, 0, {0}};
  if (err)
    memset(err, 0, sizeof *err);
  jt_buf_init(&ps.scratch);
  jt_value *v = parse_value(&ps);
  if (v) {
    skip_ws(&ps);
    if (ps.p != ps.end)
      v = fail(&ps, ps.p, "trailing characters after the value");
  }
  jt_buf_free(&ps.scratch);
  return v;
}
