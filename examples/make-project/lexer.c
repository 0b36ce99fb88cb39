/* Lexer: a dense switch over ASCII punctuation, typical of hand-written scanners. */
#include "calc.h"

#include <ctype.h>
#include <string.h>

void lex_init(struct lexer *lx, const char *src) {
  lx->p = src;
  lx->tok = T_END;
  lex_next(lx);
}

static enum tok two(struct lexer *lx, char next, enum tok yes, enum tok no) {
  if (*lx->p == next) {
    lx->p++;
    return yes;
  }
  return no;
}

static enum tok scan(struct lexer *lx) {
  while (*lx->p == ' ' || *lx->p == '\t')
    lx->p++;
  char c = *lx->p;
  if (c == '\0' || c == '\n' || c == '#')
    return T_END;
  lx->p++;
  switch (c) {
  case '(': return T_LPAREN;
  case ')': return T_RPAREN;
  case ',': return T_COMMA;
  case '+': return T_PLUS;
  case '-': return T_MINUS;
  case '*': return two(lx, '*', T_POW, T_STAR);
  case '/': return T_SLASH;
  case '%': return T_PERCENT;
  case '^': return T_CARET;
  case '&': return T_AMP;
  case '|': return T_PIPE;
  case '~': return T_TILDE;
  case '?': return T_QUESTION;
  case ':': return T_COLON;
  case '!': return two(lx, '=', T_NE, T_BANG);
  case '=': return two(lx, '=', T_EQ, T_ASSIGN);
  case '<':
    if (*lx->p == '<') { lx->p++; return T_SHL; }
    return two(lx, '=', T_LE, T_LT);
  case '>':
    if (*lx->p == '>') { lx->p++; return T_SHR; }
    return two(lx, '=', T_GE, T_GT);
  case '0': case '1': case '2': case '3': case '4':
  case '5': case '6': case '7': case '8': case '9': {
    int base = 10;
    value_t v = c - '0';
    if (c == '0' && (*lx->p == 'x' || *lx->p == 'X')) {
      base = 16;
      lx->p++;
    }
    for (;;) {
      int d;
      char ch = *lx->p;
      if (ch >= '0' && ch <= '9') d = ch - '0';
      else if (base == 16 && isxdigit((unsigned char)ch)) d = (tolower(ch) - 'a') + 10;
      else break;
      v = (value_t)((uint64_t)v * (uint64_t)base + (uint64_t)d);
      lx->p++;
    }
    lx->num = v;
    return T_NUM;
  }
  default:
    if (isalpha((unsigned char)c) || c == '_') {
      size_t n = 0;
      lx->name[n++] = c;
      while (isalnum((unsigned char)*lx->p) || *lx->p == '_') {
        if (n + 1 < sizeof lx->name)
          lx->name[n++] = *lx->p;
        lx->p++;
      }
      lx->name[n] = '\0';
      return T_NAME;
    }
    return T_ERROR;
  }
}

enum tok lex_next(struct lexer *lx) {
  lx->tok = scan(lx);
  return lx->tok;
}

const char *tok_name(enum tok t) {
  static const char *const names[] = {
    "end", "number", "name", "(", ")", ",", "=", "+", "-", "*", "/", "%", "**", "^", "&",
    "|", "~", "!", "<", ">", "<=", ">=", "==", "!=", "<<", ">>", "?", ":", "error"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}
