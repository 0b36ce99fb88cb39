/* json.c: a JSON tokenizer driven by an explicit state machine, plus a recursive-descent
 * parser that builds a small tree and a canonical printer for it.
 *
 * Size-optimizer interest: a character-class table, a state x class switch, recursion,
 * many small error paths with string constants, and a tagged-union tree.
 * Prints the canonical form and statistics of several documents, including invalid ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tokenizer. ---- */

enum Tok { T_EOF, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_COLON, T_COMMA,
           T_STRING, T_NUMBER, T_TRUE, T_FALSE, T_NULL, T_ERROR };

static const char *const TokNames[] = {
  "eof", "{", "}", "[", "]", ":", ",", "string", "number", "true", "false", "null", "error",
};

/* Number scanning states (a DFA for the JSON number grammar). */
enum NumState { N_START, N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP, N_DONE,
                N_FAIL };

static enum NumState numStep(enum NumState s, char c) {
  int digit = c >= '0' && c <= '9';
  switch (s) {
  case N_START:
    if (c == '-') return N_MINUS;
    if (c == '0') return N_ZERO;
    return digit ? N_INT : N_FAIL;
  case N_MINUS:
    if (c == '0') return N_ZERO;
    return digit ? N_INT : N_FAIL;
  case N_ZERO:
    if (c == '.') return N_DOT;
    if (c == 'e' || c == 'E') return N_E;
    return N_DONE;
  case N_INT:
    if (digit) return N_INT;
    if (c == '.') return N_DOT;
    if (c == 'e' || c == 'E') return N_E;
    return N_DONE;
  case N_DOT:
    return digit ? N_FRAC : N_FAIL;
  case N_FRAC:
    if (digit) return N_FRAC;
    if (c == 'e' || c == 'E') return N_E;
    return N_DONE;
  case N_E:
    if (c == '+' || c == '-') return N_ESIGN;
    return digit ? N_EXP : N_FAIL;
  case N_ESIGN:
    return digit ? N_EXP : N_FAIL;
  case N_EXP:
    return digit ? N_EXP : N_DONE;
  default:
    return N_FAIL;
  }
}

struct Lexer {
  const char *p;
  const char *start;
  int line, col;
  char err[80];
};

static void advance(struct Lexer *lx) {
  if (*lx->p == '\n') { lx->line++; lx->col = 1; } else lx->col++;
  lx->p++;
}

static int keyword(struct Lexer *lx, const char *kw) {
  size_t n = strlen(kw);
  if (strncmp(lx->p, kw, n) != 0) return 0;
  for (size_t i = 0; i < n; i++) advance(lx);
  return 1;
}

static enum Tok lexError(struct Lexer *lx, const char *msg) {
  snprintf(lx->err, sizeof lx->err, "%d:%d: %s", lx->line, lx->col, msg);
  return T_ERROR;
}

static enum Tok next(struct Lexer *lx) {
  while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\n' || *lx->p == '\r') advance(lx);
  lx->start = lx->p;
  char c = *lx->p;
  switch (c) {
  case 0: return T_EOF;
  case '{': advance(lx); return T_LBRACE;
  case '}': advance(lx); return T_RBRACE;
  case '[': advance(lx); return T_LBRACK;
  case ']': advance(lx); return T_RBRACK;
  case ':': advance(lx); return T_COLON;
  case ',': advance(lx); return T_COMMA;
  case 't': return keyword(lx, "true") ? T_TRUE : lexError(lx, "bad literal");
  case 'f': return keyword(lx, "false") ? T_FALSE : lexError(lx, "bad literal");
  case 'n': return keyword(lx, "null") ? T_NULL : lexError(lx, "bad literal");
  case '"':
    advance(lx);
    while (*lx->p != '"') {
      if (*lx->p == 0 || *lx->p == '\n') return lexError(lx, "unterminated string");
      if (*lx->p == '\\') {
        advance(lx);
        if (!strchr("\"\\/bfnrtu", *lx->p) || *lx->p == 0) return lexError(lx, "bad escape");
      }
      advance(lx);
    }
    advance(lx);
    return T_STRING;
  default: {
    enum NumState s = N_START;
    for (;;) {
      enum NumState n = numStep(s, *lx->p);
      if (n == N_FAIL) return lexError(lx, "bad number");
      if (n == N_DONE) return T_NUMBER;
      s = n;
      advance(lx);
    }
  }
  }
}

/* ---- Tree. ---- */

enum Kind { K_NULL, K_BOOL, K_NUM, K_STR, K_ARR, K_OBJ };

struct Node {
  enum Kind kind;
  int b;
  double num;
  char *str;            /* K_STR value */
  char *key;            /* the key of an object member */
  struct Node *child;   /* first element / member */
  struct Node *next;    /* sibling */
};

struct Parser {
  struct Lexer lx;
  enum Tok tok;
  int depth, maxDepth, nodes;
};

static struct Node *newNode(struct Parser *ps, enum Kind k) {
  struct Node *n = calloc(1, sizeof *n);
  if (!n) { perror("calloc"); exit(1); }
  n->kind = k;
  ps->nodes++;
  return n;
}

static char *tokenText(const struct Parser *ps) {
  size_t n = (size_t)(ps->lx.p - ps->lx.start);
  char *s = malloc(n + 1);
  if (!s) { perror("malloc"); exit(1); }
  memcpy(s, ps->lx.start, n);
  s[n] = 0;
  return s;
}

static void freeTree(struct Node *n) {
  while (n) {
    struct Node *nx = n->next;
    freeTree(n->child);
    free(n->str);
    free(n->key);
    free(n);
    n = nx;
  }
}

static struct Node *parseValue(struct Parser *ps);

static int expect(struct Parser *ps, enum Tok t) {
  if (ps->tok != t) {
    if (ps->tok != T_ERROR)
      snprintf(ps->lx.err, sizeof ps->lx.err, "%d:%d: expected '%s', got '%s'", ps->lx.line,
               ps->lx.col, TokNames[t], TokNames[ps->tok]);
    return 0;
  }
  ps->tok = next(&ps->lx);
  return 1;
}

static struct Node *parseContainer(struct Parser *ps, int isObj) {
  struct Node *n = newNode(ps, isObj ? K_OBJ : K_ARR), **tail = &n->child;
  if (++ps->depth > ps->maxDepth) ps->maxDepth = ps->depth;
  ps->tok = next(&ps->lx);
  enum Tok close = isObj ? T_RBRACE : T_RBRACK;
  if (ps->tok != close) {
    for (;;) {
      char *key = NULL;
      if (isObj) {
        if (ps->tok != T_STRING) { expect(ps, T_STRING); goto fail; }
        key = tokenText(ps);
        ps->tok = next(&ps->lx);
        if (!expect(ps, T_COLON)) { free(key); goto fail; }
      }
      struct Node *v = parseValue(ps);
      if (!v) { free(key); goto fail; }
      v->key = key;
      *tail = v;
      tail = &v->next;
      if (ps->tok != T_COMMA) break;
      ps->tok = next(&ps->lx);
    }
  }
  if (!expect(ps, close)) goto fail;
  ps->depth--;
  return n;
fail:
  freeTree(n);
  return NULL;
}

static struct Node *parseValue(struct Parser *ps) {
  struct Node *n;
  switch (ps->tok) {
  case T_LBRACE: return parseContainer(ps, 1);
  case T_LBRACK: return parseContainer(ps, 0);
  case T_STRING: n = newNode(ps, K_STR); n->str = tokenText(ps); break;
  case T_NUMBER: {
    n = newNode(ps, K_NUM);
    char *t = tokenText(ps);
    n->num = strtod(t, NULL);
    free(t);
    break;
  }
  case T_TRUE: case T_FALSE: n = newNode(ps, K_BOOL); n->b = ps->tok == T_TRUE; break;
  case T_NULL: n = newNode(ps, K_NULL); break;
  default:
    if (ps->tok != T_ERROR)
      snprintf(ps->lx.err, sizeof ps->lx.err, "%d:%d: unexpected '%s'", ps->lx.line,
               ps->lx.col, TokNames[ps->tok]);
    return NULL;
  }
  ps->tok = next(&ps->lx);
  return n;
}

/* Canonical printer: members as key=value, numbers with %g. */
static void print(const struct Node *n, int isMember) {
  if (isMember && n->key) printf("%s=", n->key);
  switch (n->kind) {
  case K_NULL: printf("null"); break;
  case K_BOOL: printf(n->b ? "true" : "false"); break;
  case K_NUM: printf("%g", n->num); break;
  case K_STR: printf("%s", n->str); break;
  case K_ARR: case K_OBJ:
    putchar(n->kind == K_ARR ? '[' : '{');
    for (const struct Node *c = n->child; c; c = c->next) {
      print(c, n->kind == K_OBJ);
      if (c->next) putchar(' ');
    }
    putchar(n->kind == K_ARR ? ']' : '}');
    break;
  }
}

static const char *const Docs[] = {
  "{\"name\": \"smartcc\", \"version\": 22, \"flags\": [\"-Oz\", \"-Os\"], \"enabled\": true}",
  "[1, -2.5, 3e2, 0.125, -0, 1E-3, [[], {}], null, false]",
  "{\"a\": {\"b\": {\"c\": {\"d\": [1, [2, [3, [4]]]]}}}}",
  "{\"escaped\": \"a\\\"b\\\\c\\n\", \"unicode\": \"\\u00e9\"}",
  "{\"missing\": }",
  "[1, 2,, 3]",
  "{\"num\": 01}",
  "\"unterminated",
  "[tru]",
};

int main(void) {
  int okCount = 0;
  for (unsigned i = 0; i < sizeof Docs / sizeof Docs[0]; i++) {
    struct Parser ps;
    memset(&ps, 0, sizeof ps);
    ps.lx.p = Docs[i];
    ps.lx.line = ps.lx.col = 1;
    ps.tok = next(&ps.lx);
    struct Node *root = parseValue(&ps);
    if (root && ps.tok != T_EOF) {
      snprintf(ps.lx.err, sizeof ps.lx.err, "%d:%d: trailing '%s'", ps.lx.line, ps.lx.col,
               TokNames[ps.tok]);
      freeTree(root);
      root = NULL;
    }
    printf("doc %u: ", i);
    if (root) {
      print(root, 0);
      printf("  (nodes %d, depth %d)\n", ps.nodes, ps.maxDepth);
      okCount++;
      freeTree(root);
    } else {
      printf("error %s\n", ps.lx.err);
    }
  }
  printf("%d of %u documents parsed\n", okCount, (unsigned)(sizeof Docs / sizeof Docs[0]));
  return 0;
}
