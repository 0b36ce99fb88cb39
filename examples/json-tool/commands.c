/* The commands that read one document and print it or facts about it. */
#include "tool.h"

#include <inttypes.h>
#include <string.h>

static int print_doc(const char *path, int flags) {
  jt_doc *d = jt_doc_new();
  jt_value *v = d ? load_json(d, path) : NULL;
  int rc = 1;
  if (v) {
    jt_buf out;
    jt_buf_init(&out);
    if (jt_write(&out, v, flags) == 0) {
      puts(jt_buf_cstr(&out));
      rc = 0;
    }
    jt_buf_free(&out);
  }
  jt_doc_free(d);
  return rc;
}

int cmd_fmt(int argc, char **argv) {
  int flags = JT_PRETTY;
  for (; argc > 1 && argv[0][0] == '-' && argv[0][1]; argc--, argv++) {
    if (strcmp(argv[0], "-s") == 0)
      flags |= JT_SORT_KEYS;
    else if (strcmp(argv[0], "-a") == 0)
      flags |= JT_ASCII;
    else {
      fprintf(stderr, "jt fmt: unknown option %s\n", argv[0]);
      return 2;
    }
  }
  if (argc != 1) {
    fprintf(stderr, "usage: jt fmt [-s] [-a] FILE\n");
    return 2;
  }
  return print_doc(argv[0], flags);
}

int cmd_min(int argc, char **argv) {
  if (argc != 1) {
    fprintf(stderr, "usage: jt min FILE\n");
    return 2;
  }
  return print_doc(argv[0], 0);
}

int cmd_query(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: jt q QUERY FILE\n");
    return 2;
  }
  jt_doc *d = jt_doc_new();
  jt_value *v = d ? load_json(d, argv[1]) : NULL;
  int rc = 1;
  if (v) {
    jt_error err;
    jt_value *results = jt_query(d, v, argv[0], &err);
    if (!results) {
      if (err.col)
        printf("jt q: %s at column %zu\n", err.msg, err.col);
      else
        printf("jt q: %s\n", err.msg);
    } else {
      for (size_t i = 0; i < jt_length(results); i++)
        print_compact(jt_at(results, i));
      rc = 0;
    }
  }
  jt_doc_free(d);
  return rc;
}

typedef struct {
  size_t count[7], depth, max_depth, string_bytes, string_chars, keys;
  double sum;
} stats;

static void walk(stats *st, const jt_value *v) {
  jt_type t = jt_typeof(v);
  st->count[t]++;
  if (st->depth > st->max_depth)
    st->max_depth = st->depth;
  size_t n;
  const char *s;
  switch (t) {
  case JT_NUMBER:
    st->sum += jt_number(v);
    break;
  case JT_STRING:
    s = jt_string(v, &n);
    st->string_bytes += n;
    st->string_chars += jt_utf8_count(s, n);
    break;
  case JT_ARRAY:
    st->depth++;
    for (size_t i = 0; i < jt_length(v); i++)
      walk(st, jt_at(v, i));
    st->depth--;
    break;
  case JT_OBJECT:
    st->depth++;
    st->keys += jt_length(v);
    for (size_t i = 0; i < jt_length(v); i++)
      walk(st, jt_value_at(v, i));
    st->depth--;
    break;
  default:
    break;
  }
}

int cmd_stats(int argc, char **argv) {
  if (argc != 1) {
    fprintf(stderr, "usage: jt stats FILE\n");
    return 2;
  }
  jt_doc *d = jt_doc_new();
  jt_value *v = d ? load_json(d, argv[0]) : NULL;
  if (!v) {
    jt_doc_free(d);
    return 1;
  }
  stats st;
  memset(&st, 0, sizeof st);
  walk(&st, v);
  jt_buf compact, pretty, canon;
  jt_buf_init(&compact);
  jt_buf_init(&pretty);
  jt_buf_init(&canon);
  int rc = jt_write(&compact, v, 0) || jt_write(&pretty, v, JT_PRETTY) ||
           jt_write(&canon, v, JT_SORT_KEYS);
  if (!rc) {
    printf("values: %zu (null %zu, boolean %zu, number %zu, string %zu, array %zu, object %zu)\n",
           st.count[0] + st.count[1] + st.count[2] + st.count[3] + st.count[4] + st.count[5] +
               st.count[6],
           st.count[JT_NULL], st.count[JT_FALSE] + st.count[JT_TRUE], st.count[JT_NUMBER],
           st.count[JT_STRING], st.count[JT_ARRAY], st.count[JT_OBJECT]);
    printf("depth: %zu, keys: %zu, strings: %zu bytes / %zu characters\n", st.max_depth,
           st.keys, st.string_bytes, st.string_chars);
    jt_buf sum;
    jt_buf_init(&sum);
    jt_write_number(&sum, st.sum);
    printf("sum of numbers: %s\n", jt_buf_cstr(&sum));
    jt_buf_free(&sum);
    printf("size: %zu bytes compact, %zu indented\n", compact.len, pretty.len);
    printf("canonical crc32 %08" PRIx32 " adler32 %08" PRIx32 " fnv1a64 %016" PRIx64 "\n",
           jt_crc32(0, canon.data, canon.len), jt_adler32(1, canon.data, canon.len),
           jt_fnv1a64(canon.data, canon.len));
  }
  jt_buf_free(&compact);
  jt_buf_free(&pretty);
  jt_buf_free(&canon);
  jt_doc_free(d);
  return rc ? 1 : 0;
}

int cmd_validate(int argc, char **argv) {
  if (argc < 1) {
    fprintf(stderr, "usage: jt validate FILE...\n");
    return 2;
  }
  int bad = 0;
  for (int i = 0; i < argc; i++) {
    jt_doc *d = jt_doc_new();
    jt_value *v = d ? load_json(d, argv[i]) : NULL; /* prints the error itself */
    if (v) {
      stats st;
      memset(&st, 0, sizeof st);
      walk(&st, v);
      printf("%s: ok, %s with %zu values, depth %zu\n", argv[i], jt_type_name(jt_typeof(v)),
             st.count[0] + st.count[1] + st.count[2] + st.count[3] + st.count[4] +
                 st.count[5] + st.count[6],
             st.max_depth);
    } else {
      bad = 1;
    }
    jt_doc_free(d);
  }
  return bad;
}

int cmd_sum(int argc, char **argv) {
  int rc = 0;
  for (int i = 0; i < argc; i++) {
    jt_buf data;
    jt_buf_init(&data);
    if (read_input(argv[i], &data) == 0)
      printf("%08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %8zu %s\n",
             jt_crc32(0, data.data, data.len), jt_adler32(1, data.data, data.len),
             jt_fnv1a32(data.data, data.len), data.len, argv[i]);
    else
      rc = 1;
    jt_buf_free(&data);
  }
  return rc;
}
