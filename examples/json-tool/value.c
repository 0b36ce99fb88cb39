/* The document model: values allocated from one arena per document, arrays as vectors,
 * objects as insertion-ordered member vectors with a hash index once they grow, so both
 * "print as written" and "look up by key" are cheap. */
#include "jt.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *key;
  size_t klen;
  uint32_t hash;
  jt_value *value;
} member;

struct jt_value {
  jt_type type;
  union {
    double num;
    struct {
      const char *s;
      size_t len;
    } str;
    struct {
      jt_value **items;
      size_t len, cap;
    } arr;
    struct {
      member *m;
      size_t len, cap;
      uint32_t *index; /* open addressing: member position + 1, 0 = empty */
      size_t index_cap;
    } obj;
  } u;
};

typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} chunk;

struct jt_doc {
  chunk *chunks;
  size_t bytes;
};

enum { CHUNK_SIZE = 16384, INDEX_FROM = 8 };

jt_doc *jt_doc_new(void) { return calloc(1, sizeof(jt_doc)); }

void jt_doc_free(jt_doc *d) {
  if (!d)
    return;
  for (chunk *c = d->chunks, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(d);
}

size_t jt_doc_bytes(const jt_doc *d) { return d->bytes; }

void *jt_doc_alloc(jt_doc *d, size_t n) {
  n = (n + 15) & ~(size_t)15;
  chunk *c = d->chunks;
  if (!c || c->size - c->used < n) {
    size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;
    c = malloc(sizeof(chunk) + size);
    if (!c)
      return NULL;
    c->size = size;
    c->used = 0;
    /* A large block goes behind the current chunk so its free space stays in use. */
    if (d->chunks && size > CHUNK_SIZE) {
      c->next = d->chunks->next;
      d->chunks->next = c;
    } else {
      c->next = d->chunks;
      d->chunks = c;
    }
  }
  void *p = c->data + c->used;
  c->used += n;
  d->bytes += n;
  return p;
}

static jt_value *new_value(jt_doc *d, jt_type t) {
  jt_value *v = jt_doc_alloc(d, sizeof *v);
  if (v) {
    memset(v, 0, sizeof *v);
    v->type = t;
  }
  return v;
}

jt_value *jt_new_null(jt_doc *d) { return new_value(d, JT_NULL); }
jt_value *jt_new_bool(jt_doc *d, int b) { return new_value(d, b ? JT_TRUE : JT_FALSE); }
jt_value *jt_new_array(jt_doc *d) { return new_value(d, JT_ARRAY); }
jt_value *jt_new_object(jt_doc *d) { return new_value(d, JT_OBJECT); }

jt_value *jt_new_number(jt_doc *d, double x) {
  jt_value *v = new_value(d, JT_NUMBER);
  if (v)
    v->u.num = x;
  return v;
}

jt_value *jt_new_string(jt_doc *d, const char *s, size_t n) {
  jt_value *v = new_value(d, JT_STRING);
  char *copy = jt_doc_alloc(d, n + 1);
  if (!v || !copy)
    return NULL;
  memcpy(copy, s, n);
  copy[n] = '\0';
  v->u.str.s = copy;
  v->u.str.len = n;
  return v;
}

/* Grows an arena vector; the old block stays in the arena until the document dies. */
static void *grow(jt_doc *d, void *old, size_t elem, size_t len, size_t *cap) {
  size_t ncap = *cap ? *cap * 2 : 4;
  void *p = jt_doc_alloc(d, ncap * elem);
  if (!p)
    return NULL;
  if (len)
    memcpy(p, old, len * elem);
  *cap = ncap;
  return p;
}

int jt_array_push(jt_doc *d, jt_value *arr, jt_value *v) {
  if (!arr || arr->type != JT_ARRAY || !v)
    return -1;
  if (arr->u.arr.len == arr->u.arr.cap) {
    jt_value **items =
        grow(d, arr->u.arr.items, sizeof *items, arr->u.arr.len, &arr->u.arr.cap);
    if (!items)
      return -1;
    arr->u.arr.items = items;
  }
  arr->u.arr.items[arr->u.arr.len++] = v;
  return 0;
}

static uint32_t key_hash(const char *key, size_t klen) { return jt_fnv1a32(key, klen); }

static void index_insert(jt_value *obj, size_t pos) {
  size_t mask = obj->u.obj.index_cap - 1, slot = obj->u.obj.m[pos].hash & mask;
  while (obj->u.obj.index[slot])
    slot = (slot + 1) & mask;
  obj->u.obj.index[slot] = (uint32_t)pos + 1;
}

static int reindex(jt_doc *d, jt_value *obj) {
  size_t cap = 16;
  while (cap < obj->u.obj.len * 2)
    cap *= 2;
  uint32_t *index = jt_doc_alloc(d, cap * sizeof *index);
  if (!index)
    return -1;
  memset(index, 0, cap * sizeof *index);
  obj->u.obj.index = index;
  obj->u.obj.index_cap = cap;
  for (size_t i = 0; i < obj->u.obj.len; i++)
    index_insert(obj, i);
  return 0;
}

static member *find_member(const jt_value *obj, const char *key, size_t klen) {
  uint32_t h = key_hash(key, klen);
  if (obj->u.obj.index) {
    size_t mask = obj->u.obj.index_cap - 1;
    for (size_t slot = h & mask; obj->u.obj.index[slot]; slot = (slot + 1) & mask) {
      member *m = &obj->u.obj.m[obj->u.obj.index[slot] - 1];
      if (m->hash == h && m->klen == klen && memcmp(m->key, key, klen) == 0)
        return m;
    }
    return NULL;
  }
  for (size_t i = 0; i < obj->u.obj.len; i++) {
    member *m = &obj->u.obj.m[i];
    if (m->hash == h && m->klen == klen && memcmp(m->key, key, klen) == 0)
      return m;
  }
  return NULL;
}

/* A repeated key replaces the earlier value in place (the last one wins, as in jq). */
int jt_object_set(jt_doc *d, jt_value *obj, const char *key, size_t klen, jt_value *v) {
  if (!obj || obj->type != JT_OBJECT || !v)
    return -1;
  member *m = find_member(obj, key, klen);
  if (m) {
    m->value = v;
    return 0;
  }
  if (obj->u.obj.len == obj->u.obj.cap) {
    member *ms = grow(d, obj->u.obj.m, sizeof *ms, obj->u.obj.len, &obj->u.obj.cap);
    if (!ms)
      return -1;
    obj->u.obj.m = ms;
  }
  char *k = jt_doc_alloc(d, klen + 1);
  if (!k)
    return -1;
  memcpy(k, key, klen);
  k[klen] = '\0';
  size_t pos = obj->u.obj.len++;
  obj->u.obj.m[pos] = (member){k, klen, key_hash(key, klen), v};
  if (obj->u.obj.len < INDEX_FROM)
    return 0;
  if (obj->u.obj.len * 2 > obj->u.obj.index_cap)
    return reindex(d, obj);
  index_insert(obj, pos);
  return 0;
}

jt_value *jt_copy(jt_doc *d, const jt_value *v) {
  switch (v->type) {
  case JT_NUMBER:
    return jt_new_number(d, v->u.num);
  case JT_STRING:
    return jt_new_string(d, v->u.str.s, v->u.str.len);
  case JT_ARRAY: {
    jt_value *a = jt_new_array(d);
    for (size_t i = 0; a && i < v->u.arr.len; i++)
      if (jt_array_push(d, a, jt_copy(d, v->u.arr.items[i])))
        return NULL;
    return a;
  }
  case JT_OBJECT: {
    jt_value *o = jt_new_object(d);
    for (size_t i = 0; o && i < v->u.obj.len; i++) {
      const member *m = &v->u.obj.m[i];
      if (jt_object_set(d, o, m->key, m->klen, jt_copy(d, m->value)))
        return NULL;
    }
    return o;
  }
  default:
    return new_value(d, v->type);
  }
}

jt_type jt_typeof(const jt_value *v) { return v ? v->type : JT_NULL; }

const char *jt_type_name(jt_type t) {
  static const char *const names[] = {"null",   "boolean", "boolean", "number",
                                      "string", "array",   "object"};
  return (unsigned)t < sizeof names / sizeof *names ? names[t] : "invalid";
}

int jt_is_null(const jt_value *v) { return !v || v->type == JT_NULL; }
int jt_is_bool(const jt_value *v) { return v && (v->type == JT_TRUE || v->type == JT_FALSE); }
int jt_is_number(const jt_value *v) { return v && v->type == JT_NUMBER; }
int jt_is_string(const jt_value *v) { return v && v->type == JT_STRING; }
int jt_is_array(const jt_value *v) { return v && v->type == JT_ARRAY; }
int jt_is_object(const jt_value *v) { return v && v->type == JT_OBJECT; }

/* jq's truth: everything but null and false. */
int jt_truthy(const jt_value *v) { return v && v->type != JT_NULL && v->type != JT_FALSE; }

double jt_number(const jt_value *v) { return v && v->type == JT_NUMBER ? v->u.num : 0.0; }

const char *jt_string(const jt_value *v, size_t *len) {
  if (!v || v->type != JT_STRING) {
    if (len)
      *len = 0;
    return NULL;
  }
  if (len)
    *len = v->u.str.len;
  return v->u.str.s;
}

size_t jt_length(const jt_value *v) {
  if (!v)
    return 0;
  switch (v->type) {
  case JT_STRING:
    return jt_utf8_count(v->u.str.s, v->u.str.len);
  case JT_ARRAY:
    return v->u.arr.len;
  case JT_OBJECT:
    return v->u.obj.len;
  default:
    return 0;
  }
}

jt_value *jt_at(const jt_value *v, size_t i) {
  return v && v->type == JT_ARRAY && i < v->u.arr.len ? v->u.arr.items[i] : NULL;
}

jt_value *jt_value_at(const jt_value *obj, size_t i) {
  return obj && obj->type == JT_OBJECT && i < obj->u.obj.len ? obj->u.obj.m[i].value : NULL;
}

const char *jt_key_at(const jt_value *obj, size_t i, size_t *len) {
  if (!obj || obj->type != JT_OBJECT || i >= obj->u.obj.len)
    return NULL;
  if (len)
    *len = obj->u.obj.m[i].klen;
  return obj->u.obj.m[i].key;
}

jt_value *jt_getn(const jt_value *obj, const char *key, size_t klen) {
  if (!obj || obj->type != JT_OBJECT)
    return NULL;
  member *m = find_member(obj, key, klen);
  return m ? m->value : NULL;
}

jt_value *jt_get(const jt_value *obj, const char *key) {
  return jt_getn(obj, key, strlen(key));
}

static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn) {
  int c = memcmp(a, b, an < bn ? an : bn);
  if (c)
    return c < 0 ? -1 : 1;
  return an < bn ? -1 : an > bn;
}

static int cmp_member_keys(const void *pa, const void *pb) {
  const member *a = *(const member *const *)pa, *b = *(const member *const *)pb;
  return cmp_bytes(a->key, a->klen, b->key, b->klen);
}

/* Members in key order, for sorted output and for comparing objects; NULL if out of memory. */
static const member **sorted_members(const jt_value *obj) {
  size_t n = obj->u.obj.len;
  const member **ms = malloc((n ? n : 1) * sizeof *ms);
  if (!ms)
    return NULL;
  for (size_t i = 0; i < n; i++)
    ms[i] = &obj->u.obj.m[i];
  qsort(ms, n, sizeof *ms, cmp_member_keys);
  return ms;
}

/* jq's total order: null < false < true < numbers < strings < arrays < objects; arrays
 * element by element; objects by their sorted key lists first, then value by value. */
int jt_compare(const jt_value *a, const jt_value *b) {
  jt_type ta = jt_typeof(a), tb = jt_typeof(b);
  if (ta != tb)
    return ta < tb ? -1 : 1;
  switch (ta) {
  case JT_NUMBER:
    return a->u.num < b->u.num ? -1 : a->u.num > b->u.num;
  case JT_STRING:
    return cmp_bytes(a->u.str.s, a->u.str.len, b->u.str.s, b->u.str.len);
  case JT_ARRAY:
    for (size_t i = 0; i < a->u.arr.len && i < b->u.arr.len; i++) {
      int c = jt_compare(a->u.arr.items[i], b->u.arr.items[i]);
      if (c)
        return c;
    }
    return a->u.arr.len < b->u.arr.len ? -1 : a->u.arr.len > b->u.arr.len;
  case JT_OBJECT: {
    const member **ma = sorted_members(a), **mb = sorted_members(b);
    int c = 0;
    if (!ma || !mb) {
      c = a->u.obj.len < b->u.obj.len ? -1 : a->u.obj.len > b->u.obj.len;
    } else {
      size_t n = a->u.obj.len < b->u.obj.len ? a->u.obj.len : b->u.obj.len;
      for (size_t i = 0; !c && i < n; i++)
        c = cmp_bytes(ma[i]->key, ma[i]->klen, mb[i]->key, mb[i]->klen);
      if (!c)
        c = a->u.obj.len < b->u.obj.len ? -1 : a->u.obj.len > b->u.obj.len;
      for (size_t i = 0; !c && i < n; i++)
        c = jt_compare(ma[i]->value, mb[i]->value);
    }
    free(ma);
    free(mb);
    return c;
  }
  default:
    return 0;
  }
}

int jt_equal(const jt_value *a, const jt_value *b) { return jt_compare(a, b) == 0; }
