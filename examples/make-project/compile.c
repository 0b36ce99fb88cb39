/* Compiler: precedence climbing from tokens straight to stack bytecode. */
#include "calc.h"

#include <setjmp.h>
#include <string.h>

struct compiler {
  struct lexer lx;
  struct program *prog;
  const char *error;
  jmp_buf fail;  /* errors unwind the recursive descent in one jump */
};

static _Noreturn void fail(struct compiler *c, const char *msg) {
  c->error = msg;
  longjmp(c->fail, 1);
}

static size_t emit(struct compiler *c, enum op o, value_t imm) {
  if (c->prog->len >= CODE_MAX)
    fail(c, "expression too long");
  c->prog->code[c->prog->len] = (uint8_t)o;
  c->prog->imm[c->prog->len] = imm;
  return c->prog->len++;
}

static void expect(struct compiler *c, enum tok t, const char *msg) {
  if (c->lx.tok != t)
    fail(c, msg);
  lex_next(&c->lx);
}

/* Binary operator table: precedence (0 = not binary) and opcode. */
static int binop(enum tok t, enum op *o) {
  switch (t) {
  case T_PIPE:    *o = OP_OR;  return 1;
  case T_CARET:   *o = OP_XOR; return 2;
  case T_AMP:     *o = OP_AND; return 3;
  case T_EQ:      *o = OP_EQ;  return 4;
  case T_NE:      *o = OP_NE;  return 4;
  case T_LT:      *o = OP_LT;  return 5;
  case T_GT:      *o = OP_GT;  return 5;
  case T_LE:      *o = OP_LE;  return 5;
  case T_GE:      *o = OP_GE;  return 5;
  case T_SHL:     *o = OP_SHL; return 6;
  case T_SHR:     *o = OP_SHR; return 6;
  case T_PLUS:    *o = OP_ADD; return 7;
  case T_MINUS:   *o = OP_SUB; return 7;
  case T_STAR:    *o = OP_MUL; return 8;
  case T_SLASH:   *o = OP_DIV; return 8;
  case T_PERCENT: *o = OP_MOD; return 8;
  case T_POW:     *o = OP_POW; return 9;
  default:        return 0;
  }
}

static const struct { const char *name; enum op op; int arity; } functions[] = {
  {"min", OP_MIN, 2}, {"max", OP_MAX, 2}, {"abs", OP_ABS, 1},
  {"gcd", OP_GCD, 2}, {"sqrt", OP_SQRT, 1},
};

static void expr(struct compiler *c);

static void call(struct compiler *c, const char *name) {
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
    if (strcmp(name, functions[i].name) != 0)
      continue;
    for (int a = 0; a < functions[i].arity; a++) {
      if (a > 0)
        expect(c, T_COMMA, "expected ',' between arguments");
      expr(c);
    }
    expect(c, T_RPAREN, "expected ')' after arguments");
    emit(c, functions[i].op, 0);
    return;
  }
  fail(c, "unknown function");
}

static void unary(struct compiler *c) {
  enum tok t = c->lx.tok;
  switch (t) {
  case T_MINUS: case T_TILDE: case T_BANG: case T_PLUS:
    lex_next(&c->lx);
    unary(c);
    if (t != T_PLUS)
      emit(c, t == T_MINUS ? OP_NEG : t == T_TILDE ? OP_NOT : OP_LNOT, 0);
    return;
  case T_NUM:
    emit(c, OP_PUSH, c->lx.num);
    lex_next(&c->lx);
    return;
  case T_NAME: {
    char name[sizeof c->lx.name];
    memcpy(name, c->lx.name, sizeof name);
    if (lex_next(&c->lx) == T_LPAREN) {
      lex_next(&c->lx);
      call(c, name);
    } else if (name[1] == '\0' && name[0] >= 'a' && name[0] <= 'z') {
      emit(c, OP_LOAD, name[0] - 'a');
    } else {
      fail(c, "variables are single lowercase letters");
    }
    return;
  }
  case T_LPAREN:
    lex_next(&c->lx);
    expr(c);
    expect(c, T_RPAREN, "expected ')'");
    return;
  default:
    fail(c, "expected a value");
  }
}

static void binary(struct compiler *c, int min_prec) {
  unary(c);
  for (;;) {
    enum op o;
    int prec = binop(c->lx.tok, &o);
    if (prec == 0 || prec < min_prec)
      return;
    lex_next(&c->lx);
    /* '**' is right associative, everything else left associative. */
    binary(c, o == OP_POW ? prec : prec + 1);
    emit(c, o, 0);
  }
}

static void expr(struct compiler *c) {
  binary(c, 1);
  if (c->lx.tok != T_QUESTION)
    return;
  lex_next(&c->lx);
  size_t jz = emit(c, OP_JZ, 0);
  expr(c);
  expect(c, T_COLON, "expected ':' in conditional");
  size_t jmp = emit(c, OP_JMP, 0);
  c->prog->imm[jz] = (value_t)c->prog->len;
  expr(c);
  c->prog->imm[jmp] = (value_t)c->prog->len;
}

const char *compile_line(const char *src, struct program *prog, int *assigned_var) {
  /* Static, not automatic: locals changed between setjmp and longjmp are indeterminate. */
  static struct compiler c;
  memset(&c, 0, sizeof c);
  c.prog = prog;
  prog->len = 0;
  *assigned_var = -1;
  if (setjmp(c.fail))
    return c.error;
  lex_init(&c.lx, src);
  if (c.lx.tok == T_END)
    return "empty";
  /* "x = expr" needs one token of lookahead past the name. */
  struct lexer save = c.lx;
  if (c.lx.tok == T_NAME && c.lx.name[1] == '\0' && c.lx.name[0] >= 'a' &&
      c.lx.name[0] <= 'z' && lex_next(&c.lx) == T_ASSIGN) {
    *assigned_var = save.name[0] - 'a';
    lex_next(&c.lx);
  } else {
    c.lx = save;
  }
  expr(&c);
  if (c.lx.tok != T_END)
    fail(&c, c.lx.tok == T_ERROR ? "bad character" : "unexpected token after expression");
  if (*assigned_var >= 0)
    emit(&c, OP_STORE, *assigned_var);
  emit(&c, OP_HALT, 0);
  return NULL;
}
