/* The parser of libjt's query language, a jq-like language over documents:
 *
 *   pipe   := comma ('|' comma)*
 *   comma  := or (',' or)*
 *   or     := and ('or' and)*          and := cmp ('and' cmp)*
 *   cmp    := add (('=='|'!='|'<'|'<='|'>'|'>=') add)?
 *   add    := mul (('+'|'-') mul)*      mul := unary (('*'|'/'|'%') unary)*
 *   unary  := '-' unary | postfix
 *   postfix:= primary ('.' NAME | '.' STRING | '[' ']' | '[' pipe ']' | '?')*
 *   primary:= '.' | '.' NAME | '.' STRING | '.[' ... | NUMBER | STRING | true | false | null
 *            | '(' pipe ')' | '[' pipe? ']' | '{' (KEY ':' or | NAME) , ... '}'
 *            | NAME | NAME '(' pipe (';' pipe)* ')'
 *
 * The result is a tree of nodes in the document's arena; qeval.c runs it. */
#include "query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  jt_doc *doc;
  const char *src, *p;
  jt_error *err;
  int depth;
} qparser;

enum { MAX_QUERY_DEPTH = 64, MAX_ARGS = 8 };

static void *qfail(qparser *qp, const char *msg) {
  if (qp->err && !qp->err->msg[0]) {
    qp->err->line = 1;
    qp->err->col = (size_t)(qp->p - qp->src) + 1;
    snprintf(qp->err->msg, sizeof qp->err->msg, "%s", msg);
  }
  return NULL;
}

static node *new_node(qparser *qp, node_kind k) {
  node *n = jt_doc_alloc(qp->doc, sizeof *n);
  if (!n)
    return qfail(qp, "out of memory");
  memset(n, 0, sizeof *n);
  n->kind = k;
  return n;
}

static void skip_space(qparser *qp) {
  while (*qp->p == ' ' || *qp->p == '\t' || *qp->p == '\n')
    qp->p++;
}

static int accept(qparser *qp, const char *tok) {
  skip_space(qp);
  size_t n = strlen(tok);
  if (strncmp(qp->p, tok, n) != 0)
    return 0;
  qp->p += n;
  return 1;
}

static int is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

/* A keyword only when the word ends there: "order" is a name, not "or" then "der". */
static int accept_word(qparser *qp, const char *word) {
  skip_space(qp);
  size_t n = strlen(word);
  if (strncmp(qp->p, word, n) != 0 || is_name_char(qp->p[n]))
    return 0;
  qp->p += n;
  return 1;
}

static size_t scan_name(qparser *qp) {
  size_t n = 0;
  if (is_name_start(qp->p[0]))
    while (is_name_char(qp->p[n]))
      n++;
  return n;
}

/* A string literal in the query is a JSON string: the document parser decodes it. */
static jt_value *scan_string(qparser *qp) {
  const char *start = qp->p++;
  while (*qp->p && *qp->p != '"') {
    if (*qp->p == '\\' && qp->p[1])
      qp->p++;
    qp->p++;
  }
  if (*qp->p != '"')
    return qfail(qp, "unterminated string");
  qp->p++;
  jt_error e;
  jt_value *v = jt_parse(qp->doc, start, (size_t)(qp->p - start), &e);
  return v ? v : qfail(qp, "bad string literal");
}

static node *parse_pipe(qparser *qp);
static node *parse_or(qparser *qp);

static node *field_node(qparser *qp, node *target, const char *name, size_t n) {
  node *f = new_node(qp, N_FIELD);
  if (!f)
    return NULL;
  f->a = target;
  f->name = name;
  f->nlen = n;
  return f;
}

/* After a '[': "]" iterates, anything else is an index expression. */
static node *parse_bracket(qparser *qp, node *target) {
  if (accept(qp, "]")) {
    node *it = new_node(qp, N_ITERATE);
    if (it)
      it->a = target;
    return it;
  }
  node *idx = new_node(qp, N_INDEX);
  if (!idx || !(idx->b = parse_pipe(qp)))
    return NULL;
  idx->a = target;
  return accept(qp, "]") ? idx : qfail(qp, "']' expected");
}

/* After a '.': a name, a string, a bracket, or nothing (the identity). */
static node *parse_dot_suffix(qparser *qp, node *target) {
  size_t n = scan_name(qp);
  if (n) {
    const char *name = qp->p;
    qp->p += n;
    return field_node(qp, target, name, n);
  }
  if (*qp->p == '"') {
    jt_value *s = scan_string(qp);
    size_t len;
    const char *name = s ? jt_string(s, &len) : NULL;
    return name ? field_node(qp, target, name, len) : NULL;
  }
  if (*qp->p == '[') {
    qp->p++;
    return parse_bracket(qp, target);
  }
  return target;
}

static node *parse_object_ctor(qparser *qp) {
  node *obj = new_node(qp, N_OBJECT);
  if (!obj)
    return NULL;
  obj->args = jt_doc_alloc(qp->doc, MAX_ARGS * 4 * sizeof(node *));
  obj->keys = jt_doc_alloc(qp->doc, MAX_ARGS * 4 * sizeof(node *));
  if (!obj->args || !obj->keys)
    return qfail(qp, "out of memory");
  if (accept(qp, "}"))
    return obj;
  do {
    if (obj->nargs == MAX_ARGS * 4)
      return qfail(qp, "too many members");
    skip_space(qp);
    node *key = new_node(qp, N_LITERAL), *value;
    if (!key)
      return NULL;
    size_t n = scan_name(qp);
    if (n) {
      key->value = jt_new_string(qp->doc, qp->p, n);
      qp->p += n;
    } else if (*qp->p == '"') {
      key->value = scan_string(qp);
    } else if (accept(qp, "(")) {
      key = parse_pipe(qp);
      if (!key || !accept(qp, ")"))
        return qfail(qp, "')' expected");
    } else {
      return qfail(qp, "object key expected");
    }
    if (!key || (key->kind == N_LITERAL && !key->value))
      return NULL;
    if (accept(qp, ":")) {
      value = parse_or(qp);
    } else if (key->kind == N_LITERAL) {
      /* {name} is short for {name: .name} */
      size_t klen;
      const char *k = jt_string(key->value, &klen);
      value = field_node(qp, new_node(qp, N_IDENTITY), k, klen);
    } else {
      return qfail(qp, "':' expected");
    }
    if (!value)
      return NULL;
    obj->keys[obj->nargs] = key;
    obj->args[obj->nargs++] = value;
  } while (accept(qp, ","));
  return accept(qp, "}") ? obj : qfail(qp, "'}' expected");
}

static node *parse_primary(qparser *qp) {
  skip_space(qp);
  const char *start = qp->p;
  if (*qp->p == '.') {
    qp->p++;
    node *id = new_node(qp, N_IDENTITY);
    return id ? parse_dot_suffix(qp, id) : NULL;
  }
  if ((*qp->p >= '0' && *qp->p <= '9')) {
    char *end;
    double x = strtod(qp->p, &end);
    qp->p = end;
    node *lit = new_node(qp, N_LITERAL);
    if (lit && !(lit->value = jt_new_number(qp->doc, x)))
      return qfail(qp, "out of memory");
    return lit;
  }
  if (*qp->p == '"') {
    node *lit = new_node(qp, N_LITERAL);
    if (lit && !(lit->value = scan_string(qp)))
      return NULL;
    return lit;
  }
  if (accept(qp, "(")) {
    node *inner = parse_pipe(qp);
    return inner && accept(qp, ")") ? inner : qfail(qp, "')' expected");
  }
  if (accept(qp, "[")) {
    node *c = new_node(qp, N_COLLECT);
    if (!c)
      return NULL;
    if (accept(qp, "]"))
      return c;
    if (!(c->a = parse_pipe(qp)))
      return NULL;
    return accept(qp, "]") ? c : qfail(qp, "']' expected");
  }
  if (accept(qp, "{"))
    return parse_object_ctor(qp);
  size_t n = scan_name(qp);
  if (!n)
    return qfail(qp, "expression expected");
  qp->p += n;
  node *lit = new_node(qp, N_LITERAL);
  if (!lit)
    return NULL;
  if (n == 4 && !memcmp(start, "true", 4))
    lit->value = jt_new_bool(qp->doc, 1);
  else if (n == 5 && !memcmp(start, "false", 5))
    lit->value = jt_new_bool(qp->doc, 0);
  else if (n == 4 && !memcmp(start, "null", 4))
    lit->value = jt_new_null(qp->doc);
  if (lit->value)
    return lit;
  node *call = new_node(qp, N_CALL);
  if (!call)
    return NULL;
  call->name = start;
  call->nlen = n;
  if (accept(qp, "(")) {
    call->args = jt_doc_alloc(qp->doc, MAX_ARGS * sizeof(node *));
    if (!call->args)
      return qfail(qp, "out of memory");
    do {
      if (call->nargs == MAX_ARGS)
        return qfail(qp, "too many arguments");
      if (!(call->args[call->nargs++] = parse_pipe(qp)))
        return NULL;
    } while (accept(qp, ";"));
    if (!accept(qp, ")"))
      return qfail(qp, "')' expected");
  }
  return call;
}

static node *parse_postfix(qparser *qp) {
  node *n = parse_primary(qp);
  while (n) {
    skip_space(qp);
    if (qp->p[0] == '.' && (is_name_start(qp->p[1]) || qp->p[1] == '"' || qp->p[1] == '[')) {
      qp->p++;
      n = parse_dot_suffix(qp, n);
    } else if (accept(qp, "[")) {
      n = parse_bracket(qp, n);
    } else if (accept(qp, "?")) {
      node *t = new_node(qp, N_TRY);
      if (t)
        t->a = n;
      n = t;
    } else {
      break;
    }
  }
  return n;
}

static node *binary(qparser *qp, binop op, node *a, node *b) {
  if (!a || !b)
    return NULL;
  node *n = new_node(qp, N_BINOP);
  if (n) {
    n->op = op;
    n->a = a;
    n->b = b;
  }
  return n;
}

static node *parse_unary(qparser *qp) {
  if (accept(qp, "-")) {
    node *n = new_node(qp, N_NEG);
    if (n && !(n->a = parse_unary(qp)))
      return NULL;
    return n;
  }
  return parse_postfix(qp);
}

static node *parse_mul(qparser *qp) {
  node *n = parse_unary(qp);
  for (;;) {
    if (accept(qp, "*"))
      n = binary(qp, OP_MUL, n, parse_unary(qp));
    else if (accept(qp, "/"))
      n = binary(qp, OP_DIV, n, parse_unary(qp));
    else if (accept(qp, "%"))
      n = binary(qp, OP_MOD, n, parse_unary(qp));
    else
      return n;
  }
}

static node *parse_add(qparser *qp) {
  node *n = parse_mul(qp);
  for (;;) {
    if (accept(qp, "+"))
      n = binary(qp, OP_ADD, n, parse_mul(qp));
    else if (accept(qp, "-"))
      n = binary(qp, OP_SUB, n, parse_mul(qp));
    else
      return n;
  }
}

static node *parse_cmp(qparser *qp) {
  static const struct {
    const char *tok;
    binop op;
  } ops[] = {{"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT},
             {">", OP_GT}};
  node *n = parse_add(qp);
  for (size_t i = 0; n && i < sizeof ops / sizeof *ops; i++)
    if (accept(qp, ops[i].tok))
      return binary(qp, ops[i].op, n, parse_add(qp));
  return n;
}

static node *parse_and(qparser *qp) {
  node *n = parse_cmp(qp);
  while (n && accept_word(qp, "and"))
    n = binary(qp, OP_AND, n, parse_cmp(qp));
  return n;
}

static node *parse_or(qparser *qp) {
  node *n = parse_and(qp);
  while (n && accept_word(qp, "or"))
    n = binary(qp, OP_OR, n, parse_and(qp));
  return n;
}

static node *parse_comma(qparser *qp) {
  node *n = parse_or(qp);
  while (n && accept(qp, ",")) {
    node *c = new_node(qp, N_COMMA);
    if (!c || !(c->b = parse_or(qp)))
      return NULL;
    c->a = n;
    n = c;
  }
  return n;
}

static node *parse_pipe(qparser *qp) {
  if (++qp->depth > MAX_QUERY_DEPTH)
    return qfail(qp, "query nested too deeply");
  node *n = parse_comma(qp);
  while (n && accept(qp, "|")) {
    node *p = new_node(qp, N_PIPE);
    if (!p || !(p->b = parse_comma(qp)))
      return NULL;
    p->a = n;
    n = p;
  }
  qp->depth--;
  return n;
}

node *q_parse(jt_doc *d, const char *expr, jt_error *err) {
  qparser qp = {d, expr, expr, err, 0};
  node *root = parse_pipe(&qp);
  skip_space(&qp);
  if (root && *qp.p)
    root = qfail(&qp, "unexpected text after the query");
  return root;
}
