/* The query evaluator: every expression maps one input to a stream of outputs (appended to
 * an array), as in jq. */
#include "query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int q_fail(qeval *ev, const char *fmt, const char *detail) {
  if (ev->err && !ev->err->msg[0])
    snprintf(ev->err->msg, sizeof ev->err->msg, fmt, detail);
  return -1;
}

int q_emit(qeval *ev, jt_value *out, jt_value *v) {
  if (!v || jt_array_push(ev->doc, out, v))
    return q_fail(ev, "%s", "out of memory");
  return 0;
}

/* The outputs of n for one input, as an array. */
jt_value *q_outputs(qeval *ev, const node *n, jt_value *in) {
  jt_value *arr = jt_new_array(ev->doc);
  if (!arr) {
    q_fail(ev, "%s", "out of memory");
    return NULL;
  }
  return q_eval(ev, n, in, arr) ? NULL : arr;
}

static int index_value(qeval *ev, jt_value *target, jt_value *key, jt_value *out) {
  if (jt_is_null(target))
    return q_emit(ev, out, jt_new_null(ev->doc));
  if (jt_is_object(target) && jt_is_string(key)) {
    size_t n;
    const char *k = jt_string(key, &n);
    jt_value *v = jt_getn(target, k, n);
    return q_emit(ev, out, v ? v : jt_new_null(ev->doc));
  }
  if (jt_is_array(target) && jt_is_number(key)) {
    double i = floor(jt_number(key));
    if (i < 0)
      i += (double)jt_length(target);
    jt_value *v = i >= 0 ? jt_at(target, (size_t)i) : NULL;
    return q_emit(ev, out, v ? v : jt_new_null(ev->doc));
  }
  return q_fail(ev, "cannot index %s", jt_type_name(jt_typeof(target)));
}

jt_value *q_arith(qeval *ev, binop op, jt_value *a, jt_value *b) {
  jt_doc *d = ev->doc;
  if (jt_is_number(a) && jt_is_number(b)) {
    double x = jt_number(a), y = jt_number(b);
    switch (op) {
    case OP_ADD: return jt_new_number(d, x + y);
    case OP_SUB: return jt_new_number(d, x - y);
    case OP_MUL: return jt_new_number(d, x * y);
    case OP_DIV:
      if (y == 0) {
        q_fail(ev, "%s", "division by zero");
        return NULL;
      }
      return jt_new_number(d, x / y);
    case OP_MOD:
      if ((long long)y == 0) {
        q_fail(ev, "%s", "modulo by zero");
        return NULL;
      }
      return jt_new_number(d, (double)((long long)x % (long long)y));
    default: break;
    }
  }
  if (op == OP_ADD) {
    if (jt_is_null(a))
      return b;
    if (jt_is_null(b))
      return a;
    if (jt_is_string(a) && jt_is_string(b)) {
      size_t la, lb;
      const char *sa = jt_string(a, &la), *sb = jt_string(b, &lb);
      jt_buf t;
      jt_buf_init(&t);
      jt_value *r = NULL;
      if (!jt_buf_put(&t, sa, la) && !jt_buf_put(&t, sb, lb))
        r = jt_new_string(d, t.data ? t.data : "", t.len);
      jt_buf_free(&t);
      return r;
    }
    if (jt_is_array(a) && jt_is_array(b)) {
      jt_value *r = jt_new_array(d);
      for (size_t i = 0; r && i < jt_length(a); i++)
        jt_array_push(d, r, jt_at(a, i));
      for (size_t i = 0; r && i < jt_length(b); i++)
        jt_array_push(d, r, jt_at(b, i));
      return r;
    }
    if (jt_is_object(a) && jt_is_object(b)) {
      jt_value *r = jt_copy(d, a);
      for (size_t i = 0; r && i < jt_length(b); i++) {
        size_t kl;
        const char *k = jt_key_at(b, i, &kl);
        jt_object_set(d, r, k, kl, jt_value_at(b, i));
      }
      return r;
    }
  }
  q_fail(ev, "cannot combine %s values with this operator", jt_type_name(jt_typeof(a)));
  return NULL;
}

static int eval_binop(qeval *ev, const node *n, jt_value *in, jt_value *out) {
  jt_value *as = q_outputs(ev, n->a, in);
  if (!as)
    return -1;
  for (size_t i = 0; i < jt_length(as); i++) {
    jt_value *a = jt_at(as, i);
    if (n->op == OP_AND && !jt_truthy(a)) {
      if (q_emit(ev, out, jt_new_bool(ev->doc, 0)))
        return -1;
      continue;
    }
    if (n->op == OP_OR && jt_truthy(a)) {
      if (q_emit(ev, out, jt_new_bool(ev->doc, 1)))
        return -1;
      continue;
    }
    jt_value *bs = q_outputs(ev, n->b, in);
    if (!bs)
      return -1;
    for (size_t j = 0; j < jt_length(bs); j++) {
      jt_value *b = jt_at(bs, j), *r;
      int c;
      switch (n->op) {
      case OP_EQ: r = jt_new_bool(ev->doc, jt_equal(a, b)); break;
      case OP_NE: r = jt_new_bool(ev->doc, !jt_equal(a, b)); break;
      case OP_LT: c = jt_compare(a, b), r = jt_new_bool(ev->doc, c < 0); break;
      case OP_LE: c = jt_compare(a, b), r = jt_new_bool(ev->doc, c <= 0); break;
      case OP_GT: c = jt_compare(a, b), r = jt_new_bool(ev->doc, c > 0); break;
      case OP_GE: c = jt_compare(a, b), r = jt_new_bool(ev->doc, c >= 0); break;
      case OP_AND:
      case OP_OR: r = jt_new_bool(ev->doc, jt_truthy(b)); break;
      default:
        if (!(r = q_arith(ev, n->op, a, b)))
          return -1;
      }
      if (q_emit(ev, out, r))
        return -1;
    }
  }
  return 0;
}

/* Object construction: every combination of the members' outputs, as jq does. */
static int build_object(qeval *ev, const node *n, jt_value *in, size_t member, jt_value *partial,
                        jt_value *out) {
  if (member == n->nargs)
    return q_emit(ev, out, jt_copy(ev->doc, partial));
  jt_value *keys = q_outputs(ev, n->keys[member], in);
  jt_value *values = keys ? q_outputs(ev, n->args[member], in) : NULL;
  if (!values)
    return -1;
  for (size_t i = 0; i < jt_length(keys); i++) {
    size_t klen;
    const char *k = jt_string(jt_at(keys, i), &klen);
    if (!k)
      return q_fail(ev, "%s", "object keys must be strings");
    for (size_t j = 0; j < jt_length(values); j++) {
      jt_value *obj = jt_copy(ev->doc, partial);
      if (!obj || jt_object_set(ev->doc, obj, k, klen, jt_at(values, j)) ||
          build_object(ev, n, in, member + 1, obj, out))
        return -1;
    }
  }
  return 0;
}

typedef struct {
  jt_value *key, *value;
  size_t pos;
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  int c = jt_compare(a->key, b->key);
  /* qsort is not stable; the original position keeps equal keys in input order. */
  return c ? c : (a->pos < b->pos ? -1 : a->pos > b->pos);
}

/* Sorts the array's elements by the key expression's outputs (all of them, as an array). */
jt_value *q_sorted_by(qeval *ev, jt_value *arr, const node *key) {
  size_t n = jt_length(arr);
  keyed *items = malloc((n ? n : 1) * sizeof *items);
  if (!items)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    items[i].value = jt_at(arr, i);
    items[i].pos = i;
    items[i].key = key ? q_outputs(ev, key, items[i].value) : items[i].value;
    if (!items[i].key) {
      free(items);
      return NULL;
    }
  }
  qsort(items, n, sizeof *items, cmp_keyed);
  jt_value *r = jt_new_array(ev->doc);
  for (size_t i = 0; r && i < n; i++)
    jt_array_push(ev->doc, r, items[i].value);
  free(items);
  return r;
}

int q_eval(qeval *ev, const node *n, jt_value *in, jt_value *out) {
  switch (n->kind) {
  case N_IDENTITY:
    return q_emit(ev, out, in);
  case N_LITERAL:
    return q_emit(ev, out, n->value);
  case N_FIELD: {
    jt_value *ts = q_outputs(ev, n->a, in), *key = jt_new_string(ev->doc, n->name, n->nlen);
    if (!ts || !key)
      return -1;
    for (size_t i = 0; i < jt_length(ts); i++)
      if (index_value(ev, jt_at(ts, i), key, out))
        return -1;
    return 0;
  }
  case N_INDEX: {
    jt_value *ts = q_outputs(ev, n->a, in), *ks = q_outputs(ev, n->b, in);
    if (!ts || !ks)
      return -1;
    for (size_t i = 0; i < jt_length(ts); i++)
      for (size_t j = 0; j < jt_length(ks); j++)
        if (index_value(ev, jt_at(ts, i), jt_at(ks, j), out))
          return -1;
    return 0;
  }
  case N_ITERATE: {
    jt_value *ts = q_outputs(ev, n->a, in);
    if (!ts)
      return -1;
    for (size_t i = 0; i < jt_length(ts); i++) {
      jt_value *t = jt_at(ts, i);
      if (!jt_is_array(t) && !jt_is_object(t))
        return q_fail(ev, "cannot iterate over %s", jt_type_name(jt_typeof(t)));
      for (size_t j = 0; j < jt_length(t); j++)
        if (q_emit(ev, out, jt_is_array(t) ? jt_at(t, j) : jt_value_at(t, j)))
          return -1;
    }
    return 0;
  }
  case N_PIPE: {
    jt_value *mid = q_outputs(ev, n->a, in);
    if (!mid)
      return -1;
    for (size_t i = 0; i < jt_length(mid); i++)
      if (q_eval(ev, n->b, jt_at(mid, i), out))
        return -1;
    return 0;
  }
  case N_COMMA:
    return q_eval(ev, n->a, in, out) ? -1 : q_eval(ev, n->b, in, out);
  case N_BINOP:
    return eval_binop(ev, n, in, out);
  case N_NEG: {
    jt_value *xs = q_outputs(ev, n->a, in);
    if (!xs)
      return -1;
    for (size_t i = 0; i < jt_length(xs); i++) {
      if (!jt_is_number(jt_at(xs, i)))
        return q_fail(ev, "cannot negate %s", jt_type_name(jt_typeof(jt_at(xs, i))));
      if (q_emit(ev, out, jt_new_number(ev->doc, -jt_number(jt_at(xs, i)))))
        return -1;
    }
    return 0;
  }
  case N_COLLECT: {
    jt_value *arr = n->a ? q_outputs(ev, n->a, in) : jt_new_array(ev->doc);
    return arr ? q_emit(ev, out, arr) : -1;
  }
  case N_OBJECT: {
    jt_value *empty = jt_new_object(ev->doc);
    return empty ? build_object(ev, n, in, 0, empty, out) : -1;
  }
  case N_CALL:
    return q_call(ev, n, in, out);
  case N_TRY: {
    /* Errors inside are dropped with their outputs; the message must not leak out. */
    jt_error saved = *ev->err;
    jt_value *part = jt_new_array(ev->doc);
    if (!part)
      return -1;
    if (q_eval(ev, n->a, in, part)) {
      *ev->err = saved;
      return 0;
    }
    for (size_t i = 0; i < jt_length(part); i++)
      if (q_emit(ev, out, jt_at(part, i)))
        return -1;
    return 0;
  }
  }
  return q_fail(ev, "%s", "bad query node");
}

jt_value *jt_query(jt_doc *d, const jt_value *input, const char *expr, jt_error *err) {
  jt_error local;
  if (!err)
    err = &local;
  memset(err, 0, sizeof *err);
  node *root = q_parse(d, expr, err);
  if (!root)
    return NULL;
  qeval ev = {d, err};
  return q_outputs(&ev, root, (jt_value *)input);
}
