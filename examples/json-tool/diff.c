/* paths: every scalar with its jq path; diff: what changed between two documents, path by
 * path (objects by key, arrays by position), so a reviewer sees ".items[3].price: 4 -> 5"
 * instead of two walls of text. */
#include "tool.h"

#include <string.h>

static void print_scalar_line(const char *prefix, jt_buf *path, const jt_value *v) {
  jt_buf text;
  jt_buf_init(&text);
  jt_write(&text, v, 0);
  printf("%s%s = %s\n", prefix, path->len ? jt_buf_cstr(path) : ".", jt_buf_cstr(&text));
  jt_buf_free(&text);
}

static void list_paths(jt_buf *path, const jt_value *v) {
  size_t mark = path->len;
  if (jt_is_array(v) && jt_length(v)) {
    for (size_t i = 0; i < jt_length(v); i++) {
      path_push_index(path, i);
      list_paths(path, jt_at(v, i));
      path->len = mark;
    }
  } else if (jt_is_object(v) && jt_length(v)) {
    for (size_t i = 0; i < jt_length(v); i++) {
      size_t klen;
      const char *key = jt_key_at(v, i, &klen);
      path_push_key(path, key, klen);
      list_paths(path, jt_value_at(v, i));
      path->len = mark;
    }
  } else {
    print_scalar_line("", path, v);
  }
}

int cmd_paths(int argc, char **argv) {
  if (argc != 1) {
    fprintf(stderr, "usage: jt paths FILE\n");
    return 2;
  }
  jt_doc *d = jt_doc_new();
  jt_value *v = d ? load_json(d, argv[0]) : NULL;
  if (v) {
    jt_buf path;
    jt_buf_init(&path);
    list_paths(&path, v);
    jt_buf_free(&path);
  }
  jt_doc_free(d);
  return v ? 0 : 1;
}

typedef struct {
  size_t added, removed, changed;
} diff_count;

static void show_change(jt_buf *path, const jt_value *a, const jt_value *b, diff_count *n) {
  jt_buf ta, tb;
  jt_buf_init(&ta);
  jt_buf_init(&tb);
  jt_write(&ta, a, 0);
  jt_write(&tb, b, 0);
  printf("~ %s: %s -> %s\n", path->len ? jt_buf_cstr(path) : ".", jt_buf_cstr(&ta),
         jt_buf_cstr(&tb));
  jt_buf_free(&ta);
  jt_buf_free(&tb);
  n->changed++;
}

static void diff_values(jt_buf *path, const jt_value *a, const jt_value *b, diff_count *n) {
  size_t mark = path->len;
  if (jt_is_object(a) && jt_is_object(b)) {
    for (size_t i = 0; i < jt_length(a); i++) {
      size_t klen;
      const char *key = jt_key_at(a, i, &klen);
      const jt_value *other = jt_getn(b, key, klen);
      path_push_key(path, key, klen);
      if (!other) {
        print_scalar_line("- ", path, jt_value_at(a, i));
        n->removed++;
      } else {
        diff_values(path, jt_value_at(a, i), other, n);
      }
      path->len = mark;
    }
    for (size_t i = 0; i < jt_length(b); i++) {
      size_t klen;
      const char *key = jt_key_at(b, i, &klen);
      if (jt_getn(a, key, klen))
        continue;
      path_push_key(path, key, klen);
      print_scalar_line("+ ", path, jt_value_at(b, i));
      n->added++;
      path->len = mark;
    }
    return;
  }
  if (jt_is_array(a) && jt_is_array(b)) {
    size_t la = jt_length(a), lb = jt_length(b);
    for (size_t i = 0; i < la || i < lb; i++) {
      path_push_index(path, i);
      if (i >= lb) {
        print_scalar_line("- ", path, jt_at(a, i));
        n->removed++;
      } else if (i >= la) {
        print_scalar_line("+ ", path, jt_at(b, i));
        n->added++;
      } else {
        diff_values(path, jt_at(a, i), jt_at(b, i), n);
      }
      path->len = mark;
    }
    return;
  }
  if (!jt_equal(a, b))
    show_change(path, a, b, n);
}

int cmd_diff(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: jt diff OLD NEW\n");
    return 2;
  }
  jt_doc *d = jt_doc_new();
  jt_value *a = d ? load_json(d, argv[0]) : NULL;
  jt_value *b = a ? load_json(d, argv[1]) : NULL;
  if (!b) {
    jt_doc_free(d);
    return 2;
  }
  diff_count n = {0, 0, 0};
  jt_buf path;
  jt_buf_init(&path);
  diff_values(&path, a, b, &n);
  jt_buf_free(&path);
  printf("%zu added, %zu removed, %zu changed\n", n.added, n.removed, n.changed);
  jt_doc_free(d);
  return n.added + n.removed + n.changed ? 1 : 0;
}
