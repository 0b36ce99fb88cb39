/* The query language's parts, shared by its parser (qparse.c), evaluator (qeval.c) and
 * built-in functions (qbuiltins.c); nothing here is part of libjt's interface, so it is
 * hidden from the library's dynamic symbol table. */
#ifndef QUERY_H
#define QUERY_H

#include "jt.h"

#define QUERY_INTERNAL __attribute__((visibility("hidden")))

typedef enum {
  N_IDENTITY, N_FIELD, N_INDEX, N_ITERATE, N_LITERAL, N_PIPE, N_COMMA, N_BINOP, N_NEG,
  N_COLLECT, N_OBJECT, N_CALL, N_TRY
} node_kind;

typedef enum {
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_AND,
  OP_OR
} binop;

typedef struct node node;
struct node {
  node_kind kind;
  binop op;
  node *a, *b;      /* operands, or target and index */
  jt_value *value;  /* literal */
  const char *name; /* field, function or object key */
  size_t nlen;
  node **args; /* call arguments or object member values */
  node **keys; /* object member keys (literal or computed) */
  size_t nargs;
};

typedef struct {
  jt_doc *doc;
  jt_error *err;
} qeval;

/* Parses a query; NULL with err set (column = offset + 1) on a syntax error. */
QUERY_INTERNAL node *q_parse(jt_doc *d, const char *expr, jt_error *err);

/* Each appends n's outputs for one input to the array out; 0, or -1 with ev->err set. */
QUERY_INTERNAL int q_eval(qeval *ev, const node *n, jt_value *in, jt_value *out);
QUERY_INTERNAL int q_call(qeval *ev, const node *n, jt_value *in, jt_value *out);

QUERY_INTERNAL int q_fail(qeval *ev, const char *fmt, const char *detail);
QUERY_INTERNAL int q_emit(qeval *ev, jt_value *out, jt_value *v);
/* The outputs of n for one input, as a new array; NULL on error. */
QUERY_INTERNAL jt_value *q_outputs(qeval *ev, const node *n, jt_value *in);
/* a OP b for the arithmetic operators (numbers; + also joins strings, arrays, objects). */
QUERY_INTERNAL jt_value *q_arith(qeval *ev, binop op, jt_value *a, jt_value *b);
/* The array sorted by each element's outputs of key (the element itself if key is NULL). */
QUERY_INTERNAL jt_value *q_sorted_by(qeval *ev, jt_value *arr, const node *key);

#endif
