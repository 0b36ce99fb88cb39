// A tiny expression evaluator over the table: numbers, names, + - * / and parentheses.
#include "wp.h"
#include <ctype.h>
#include <string.h>

static const char *p;

static long expr(void);

static long atom(void) {
  while (*p == ' ')
    ++p;
  if (*p == '(') {
    ++p;
    long v = expr();
    if (*p == ')')
      ++p;
    return v;
  }
  if (isdigit((unsigned char)*p)) {
    long v = 0;
    while (isdigit((unsigned char)*p))
      v = v * 10 + (*p++ - '0');
    return v;
  }
  char name[32];
  int n = 0;
  while (isalpha((unsigned char)*p) && n < 31)
    name[n++] = *p++;
  name[n] = 0;
  return wp_get(name, 0);
}

static long term(void) {
  long v = atom();
  for (;;) {
    while (*p == ' ')
      ++p;
    if (*p == '*')
      ++p, v *= atom();
    else if (*p == '/') {
      ++p;
      long d = atom();
      v = d ? v / d : 0;
    } else
      return v;
  }
}

static long expr(void) {
  long v = term();
  for (;;) {
    while (*p == ' ')
      ++p;
    if (*p == '+')
      ++p, v += term();
    else if (*p == '-')
      ++p, v -= term();
    else
      return v;
  }
}

long wp_eval(const char *text) {
  p = text;
  return expr();
}

// Exported by the library, unused by the program: stays in the library (it is its interface).
long wp_eval_or(const char *text, long fallback) {
  return *text ? wp_eval(text) : fallback;
}
