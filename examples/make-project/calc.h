/* calc: a tiny integer expression calculator (lexer -> bytecode compiler -> stack VM). */
#ifndef CALC_H
#define CALC_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t value_t;

enum tok {
  T_END, T_NUM, T_NAME, T_LPAREN, T_RPAREN, T_COMMA, T_ASSIGN,
  T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_POW, T_CARET, T_AMP, T_PIPE, T_TILDE,
  T_BANG, T_LT, T_GT, T_LE, T_GE, T_EQ, T_NE, T_SHL, T_SHR, T_QUESTION, T_COLON,
  T_ERROR
};

struct lexer {
  const char *p;
  enum tok tok;
  value_t num;
  char name[16];
};

void lex_init(struct lexer *lx, const char *src);
enum tok lex_next(struct lexer *lx);
const char *tok_name(enum tok t);

/* Bytecode: one byte opcode, PUSH/LOAD/STORE/JZ/JMP followed by an operand. */
enum op {
  OP_PUSH, OP_LOAD, OP_STORE, OP_POP,
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW,
  OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR,
  OP_NEG, OP_NOT, OP_LNOT,
  OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE,
  OP_MIN, OP_MAX, OP_ABS, OP_GCD, OP_SQRT,
  OP_JZ, OP_JMP, OP_HALT,
  OP_COUNT
};

#define CODE_MAX 512
#define NVARS 26

struct program {
  uint8_t code[CODE_MAX];
  value_t imm[CODE_MAX];  /* operand of the instruction at the same index */
  size_t len;
};

/* Compiles one line; returns NULL on success or a static error message. */
const char *compile_line(const char *src, struct program *prog, int *assigned_var);
/* Runs a program against the variable table; returns NULL or an error message. */
const char *vm_run(const struct program *prog, value_t vars[NVARS], value_t *result);
const char *op_name(enum op o);

#endif
