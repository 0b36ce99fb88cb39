/* jt: format, validate, query, compare and pack JSON documents (with libjt). */
#include "tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int read_input(const char *path, jt_buf *buf) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "jt: %s: %s\n", path, strerror(errno));
    return -1;
  }
  char chunk[4096];
  size_t n;
  int rc = 0;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    if (jt_buf_put(buf, chunk, n)) {
      fprintf(stderr, "jt: %s: out of memory\n", path);
      rc = -1;
      break;
    }
  if (ferror(f)) {
    fprintf(stderr, "jt: %s: read error\n", path);
    rc = -1;
  }
  if (f != stdin)
    fclose(f);
  return rc;
}

jt_value *load_json(jt_doc *d, const char *path) {
  jt_buf text;
  jt_buf_init(&text);
  jt_value *v = NULL;
  if (read_input(path, &text) == 0) {
    jt_error err;
    v = jt_parse(d, text.data ? text.data : "", text.len, &err);
    if (!v)
      printf("%s:%zu:%zu: %s\n", path, err.line, err.col, err.msg);
  }
  jt_buf_free(&text);
  return v;
}

int path_push_key(jt_buf *path, const char *key, size_t klen) {
  int plain = klen > 0 && !(key[0] >= '0' && key[0] <= '9');
  for (size_t i = 0; plain && i < klen; i++)
    plain = (key[i] >= 'a' && key[i] <= 'z') || (key[i] >= 'A' && key[i] <= 'Z') ||
            (key[i] >= '0' && key[i] <= '9') || key[i] == '_';
  if (jt_buf_putc(path, '.'))
    return -1;
  return plain ? jt_buf_put(path, key, klen) : jt_write_string(path, key, klen, 0);
}

int path_push_index(jt_buf *path, size_t i) { return jt_buf_printf(path, "[%zu]", i); }

void print_compact(const jt_value *v) {
  jt_buf out;
  jt_buf_init(&out);
  if (jt_write(&out, v, 0) == 0)
    puts(jt_buf_cstr(&out));
  jt_buf_free(&out);
}

static const struct {
  const char *name, *args, *help;
  int (*run)(int, char **);
} commands[] = {
    {"fmt", "[-s] [-a] FILE", "indent; -s sorts keys, -a escapes non-ASCII", cmd_fmt},
    {"min", "FILE", "print on one line", cmd_min},
    {"q", "QUERY FILE", "run a jq-style query, one output per line", cmd_query},
    {"validate", "FILE...", "check syntax and UTF-8, show where the first error is", cmd_validate},
    {"stats", "FILE", "values by type, depth, sizes and checksums", cmd_stats},
    {"paths", "FILE", "every scalar as PATH = VALUE", cmd_paths},
    {"diff", "OLD NEW", "what changed, path by path", cmd_diff},
    {"pack", "FILE", "minify, compress and print as base64", cmd_pack},
    {"unpack", "FILE", "undo pack and indent", cmd_unpack},
    {"sum", "FILE...", "CRC-32, Adler-32 and FNV-1a of each file's bytes", cmd_sum},
};

static int usage(FILE *to) {
  fprintf(to, "usage: jt COMMAND ARGS\n");
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(to, "  %-8s %-16s %s\n", commands[i].name, commands[i].args, commands[i].help);
  return to == stdout ? 0 : 2;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return usage(stderr);
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
    return usage(stdout);
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(argv[1], commands[i].name) == 0)
      return commands[i].run(argc - 2, argv + 2);
  fprintf(stderr, "jt: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
