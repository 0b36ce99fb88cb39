/* rpn-eval.c: evaluates integer reverse-Polish expressions ("3 4 + 2 *"). */
#include "rpn.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define DEPTH 32

const char *rpnErrorName(enum RpnError e) {
  switch (e) {
  case RPN_OK: return "ok";
  case RPN_UNDERFLOW: return "stack underflow";
  case RPN_OVERFLOW: return "stack overflow";
  case RPN_DIV_ZERO: return "division by zero";
  case RPN_BAD_TOKEN: return "bad token";
  case RPN_LEFTOVER: return "values left over";
  }
  return "?";
}

static int binary(long *stack, int *sp, char op, enum RpnError *err) {
  if (!op || !strchr("+-*/%", op)) { *err = RPN_BAD_TOKEN; return 0; }
  if (*sp < 2) { *err = RPN_UNDERFLOW; return 0; }
  long b = stack[--*sp], a = stack[*sp - 1], r;
  switch (op) {
  case '+': r = a + b; break;
  case '-': r = a - b; break;
  case '*': r = a * b; break;
  case '/': if (b == 0) { *err = RPN_DIV_ZERO; return 0; } r = a / b; break;
  case '%': if (b == 0) { *err = RPN_DIV_ZERO; return 0; } r = a % b; break;
  default: *err = RPN_BAD_TOKEN; return 0;
  }
  stack[*sp - 1] = r;
  return 1;
}

struct RpnResult rpnEval(const char *p) {
  long stack[DEPTH];
  int sp = 0, pos = 0;
  struct RpnResult res = {RPN_OK, 0, 0};
  while (*p) {
    while (*p == ' ') p++;
    if (!*p) break;
    if (isdigit((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1]))) {
      char *end;
      long v = strtol(p, &end, 10);
      if (sp == DEPTH) { res.error = RPN_OVERFLOW; res.position = pos; return res; }
      stack[sp++] = v;
      p = end;
    } else {
      if (p[1] && p[1] != ' ') { res.error = RPN_BAD_TOKEN; res.position = pos; return res; }
      if (*p == 'd') { /* dup */
        if (sp == 0) { res.error = RPN_UNDERFLOW; res.position = pos; return res; }
        if (sp == DEPTH) { res.error = RPN_OVERFLOW; res.position = pos; return res; }
        stack[sp] = stack[sp - 1];
        sp++;
      } else if (!binary(stack, &sp, *p, &res.error)) {
        res.position = pos;
        return res;
      }
      p++;
    }
    pos++;
  }
  if (sp != 1) {
    res.error = sp == 0 ? RPN_UNDERFLOW : RPN_LEFTOVER;
    res.position = pos;
    return res;
  }
  res.value = stack[0];
  return res;
}
