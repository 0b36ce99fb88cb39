/* The query language's built-in functions (length, keys, map, select, sort_by, group_by,
 * join, ...), with jq's meaning for each. */
#include "query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int need_array(qeval *ev, jt_value *in, const char *fn) {
  if (jt_is_array(in))
    return 0;
  return q_fail(ev, "%s needs an array", fn);
}

static jt_value *to_string(qeval *ev, jt_value *in) {
  if (jt_is_string(in))
    return in;
  jt_buf t;
  jt_buf_init(&t);
  jt_value *r = NULL;
  if (jt_write(&t, in, 0) == 0)
    r = jt_new_string(ev->doc, t.data, t.len);
  jt_buf_free(&t);
  return r;
}

int q_call(qeval *ev, const node *n, jt_value *in, jt_value *out) {
  char name[32];
  jt_doc *d = ev->doc;
  snprintf(name, sizeof name, "%.*s", (int)n->nlen, n->name);
  const node *arg = n->nargs ? n->args[0] : NULL;
#define IS(s, k) (strcmp(name, s) == 0 && n->nargs == (k))
  if (IS("empty", 0))
    return 0;
  if (IS("not", 0))
    return q_emit(ev, out, jt_new_bool(d, !jt_truthy(in)));
  if (IS("type", 0))
    return q_emit(ev, out, jt_new_string(d, jt_type_name(jt_typeof(in)),
                                       strlen(jt_type_name(jt_typeof(in)))));
  if (IS("length", 0)) {
    if (jt_is_number(in))
      return q_emit(ev, out, jt_new_number(d, fabs(jt_number(in))));
    return q_emit(ev, out, jt_new_number(d, (double)jt_length(in)));
  }
  if (IS("keys", 0)) {
    if (jt_is_array(in)) {
      jt_value *r = jt_new_array(d);
      for (size_t i = 0; r && i < jt_length(in); i++)
        jt_array_push(d, r, jt_new_number(d, (double)i));
      return q_emit(ev, out, r);
    }
    if (!jt_is_object(in))
      return q_fail(ev, "%s has no keys", jt_type_name(jt_typeof(in)));
    jt_value *r = jt_new_array(d);
    for (size_t i = 0; r && i < jt_length(in); i++) {
      size_t kl;
      const char *k = jt_key_at(in, i, &kl);
      jt_array_push(d, r, jt_new_string(d, k, kl));
    }
    return q_emit(ev, out, q_sorted_by(ev, r, NULL));
  }
  if (IS("values", 0) || IS("to_entries", 0)) {
    int entries = name[0] == 't';
    if (!jt_is_object(in))
      return q_fail(ev, "%s needs an object", name);
    jt_value *r = jt_new_array(d);
    for (size_t i = 0; r && i < jt_length(in); i++) {
      size_t kl;
      const char *k = jt_key_at(in, i, &kl);
      jt_value *v = jt_value_at(in, i);
      if (entries) {
        jt_value *e = jt_new_object(d);
        jt_object_set(d, e, "key", 3, jt_new_string(d, k, kl));
        jt_object_set(d, e, "value", 5, v);
        v = e;
      }
      jt_array_push(d, r, v);
    }
    return q_emit(ev, out, r);
  }
  if (IS("add", 0) || IS("sum", 0)) {
    if (need_array(ev, in, name))
      return -1;
    jt_value *acc = jt_new_null(d);
    for (size_t i = 0; acc && i < jt_length(in); i++)
      acc = q_arith(ev, OP_ADD, acc, jt_at(in, i));
    if (!acc)
      return -1;
    if (name[0] == 's' && jt_is_null(acc))
      acc = jt_new_number(d, 0);
    return q_emit(ev, out, acc);
  }
  if (IS("min", 0) || IS("max", 0) || IS("min_by", 1) || IS("max_by", 1)) {
    if (need_array(ev, in, name))
      return -1;
    jt_value *s = q_sorted_by(ev, in, arg);
    if (!s)
      return -1;
    size_t len = jt_length(s);
    if (len == 0)
      return q_emit(ev, out, jt_new_null(d));
    return q_emit(ev, out, jt_at(s, name[1] == 'i' ? 0 : len - 1));
  }
  if (IS("sort", 0) || IS("sort_by", 1)) {
    if (need_array(ev, in, name))
      return -1;
    jt_value *s = q_sorted_by(ev, in, arg);
    return s ? q_emit(ev, out, s) : -1;
  }
  if (IS("unique", 0) || IS("unique_by", 1)) {
    if (need_array(ev, in, name))
      return -1;
    jt_value *s = q_sorted_by(ev, in, arg), *r = jt_new_array(d), *last = NULL;
    if (!s || !r)
      return -1;
    for (size_t i = 0; i < jt_length(s); i++) {
      jt_value *v = jt_at(s, i), *k = arg ? q_outputs(ev, arg, v) : v;
      if (!k)
        return -1;
      if (!last || !jt_equal(last, k))
        jt_array_push(d, r, v);
      last = k;
    }
    return q_emit(ev, out, r);
  }
  if (IS("group_by", 1)) {
    if (need_array(ev, in, name))
      return -1;
    jt_value *s = q_sorted_by(ev, in, arg), *r = jt_new_array(d), *group = NULL, *last = NULL;
    if (!s || !r)
      return -1;
    for (size_t i = 0; i < jt_length(s); i++) {
      jt_value *v = jt_at(s, i), *k = q_outputs(ev, arg, v);
      if (!k)
        return -1;
      if (!last || !jt_equal(last, k)) {
        group = jt_new_array(d);
        jt_array_push(d, r, group);
      }
      jt_array_push(d, group, v);
      last = k;
    }
    return q_emit(ev, out, r);
  }
  if (IS("reverse", 0)) {
    if (jt_is_null(in))
      return q_emit(ev, out, jt_new_array(d));
    if (need_array(ev, in, name))
      return -1;
    jt_value *r = jt_new_array(d);
    for (size_t i = jt_length(in); r && i > 0; i--)
      jt_array_push(d, r, jt_at(in, i - 1));
    return q_emit(ev, out, r);
  }
  if (IS("first", 0) || IS("last", 0)) {
    if (need_array(ev, in, name))
      return -1;
    size_t len = jt_length(in);
    jt_value *v = len ? jt_at(in, name[0] == 'f' ? 0 : len - 1) : NULL;
    return q_emit(ev, out, v ? v : jt_new_null(d));
  }
  if (IS("tostring", 0))
    return q_emit(ev, out, to_string(ev, in));
  if (IS("tonumber", 0)) {
    if (jt_is_number(in))
      return q_emit(ev, out, in);
    size_t len;
    const char *s = jt_string(in, &len);
    jt_error e;
    jt_value *v = s ? jt_parse(d, s, len, &e) : NULL;
    if (!jt_is_number(v))
      return q_fail(ev, "%s", "cannot parse as a number");
    return q_emit(ev, out, v);
  }
  if (IS("floor", 0) || IS("sqrt", 0) || IS("round", 0)) {
    if (!jt_is_number(in))
      return q_fail(ev, "%s needs a number", name);
    double x = jt_number(in);
    x = name[0] == 'f' ? floor(x) : name[0] == 's' ? sqrt(x) : round(x);
    return q_emit(ev, out, jt_new_number(d, x));
  }
  if (IS("ascii_downcase", 0) || IS("ascii_upcase", 0)) {
    size_t len;
    const char *s = jt_string(in, &len);
    if (!s)
      return q_fail(ev, "%s needs a string", name);
    char *t = jt_doc_alloc(d, len + 1);
    if (!t)
      return q_fail(ev, "%s", "out of memory");
    int up = name[6] == 'u';
    for (size_t i = 0; i < len; i++) {
      char c = s[i];
      if (up && c >= 'a' && c <= 'z')
        c = (char)(c - 32);
      else if (!up && c >= 'A' && c <= 'Z')
        c = (char)(c + 32);
      t[i] = c;
    }
    return q_emit(ev, out, jt_new_string(d, t, len));
  }
  if (IS("select", 1) || IS("map", 1) || IS("has", 1) || IS("join", 1) ||
      IS("startswith", 1) || IS("contains", 1)) {
    if (strcmp(name, "map") == 0) {
      if (need_array(ev, in, name))
        return -1;
      jt_value *r = jt_new_array(d);
      for (size_t i = 0; r && i < jt_length(in); i++)
        if (q_eval(ev, arg, jt_at(in, i), r))
          return -1;
      return q_emit(ev, out, r);
    }
    jt_value *conds = q_outputs(ev, arg, in);
    if (!conds)
      return -1;
    for (size_t i = 0; i < jt_length(conds); i++) {
      jt_value *c = jt_at(conds, i), *r;
      size_t la, lb;
      const char *a = jt_string(in, &la), *b = jt_string(c, &lb);
      switch (name[0]) {
      case 's':
        if (name[1] == 'e') {
          if (jt_truthy(c) && q_emit(ev, out, in))
            return -1;
          continue;
        }
        if (!a || !b)
          return q_fail(ev, "%s", "startswith needs strings");
        r = jt_new_bool(d, la >= lb && memcmp(a, b, lb) == 0);
        break;
      case 'h':
        if (jt_is_object(in) && jt_is_string(c))
          r = jt_new_bool(d, jt_getn(in, b, lb) != NULL);
        else if (jt_is_array(in) && jt_is_number(c))
          r = jt_new_bool(d, jt_number(c) >= 0 && jt_number(c) < (double)jt_length(in));
        else
          return q_fail(ev, "%s", "has: object and string, or array and number");
        break;
      case 'c': {
        if (!a || !b)
          return q_fail(ev, "%s", "contains needs strings");
        int found = lb == 0;
        for (size_t k = 0; !found && k + lb <= la; k++)
          found = memcmp(a + k, b, lb) == 0;
        r = jt_new_bool(d, found);
        break;
      }
      default: { /* join */
        if (need_array(ev, in, name) || !b)
          return b ? -1 : q_fail(ev, "%s", "join needs a string separator");
        jt_buf t;
        jt_buf_init(&t);
        int rc = 0;
        for (size_t k = 0; !rc && k < jt_length(in); k++) {
          jt_value *e = jt_at(in, k);
          if (k)
            rc = jt_buf_put(&t, b, lb);
          if (jt_is_null(e))
            continue;
          jt_value *s = jt_is_array(e) || jt_is_object(e) ? NULL : to_string(ev, e);
          size_t sl;
          const char *sv = jt_string(s, &sl);
          if (!sv) {
            jt_buf_free(&t);
            return q_fail(ev, "%s", "join: cannot join arrays or objects");
          }
          rc = rc ? rc : jt_buf_put(&t, sv, sl);
        }
        r = rc ? NULL : jt_new_string(d, t.data ? t.data : "", t.len);
        jt_buf_free(&t);
      }
      }
      if (q_emit(ev, out, r))
        return -1;
    }
    return 0;
  }
#undef IS
  return q_fail(ev, "unknown function %s", name);
}
