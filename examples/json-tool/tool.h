/* The jt command's parts: each command takes its arguments and prints to stdout. */
#ifndef TOOL_H
#define TOOL_H

#include "jt.h"

#include <stdio.h>

/* Reads a whole file ("-" is standard input) into buf; prints the error and returns -1. */
int read_input(const char *path, jt_buf *buf);
/* Parses a file into a new document; prints "path:line:col: message" on error. */
jt_value *load_json(jt_doc *d, const char *path);
/* Appends a jq path step (.name, ."odd key" or [i]) for a member or element. */
int path_push_key(jt_buf *path, const char *key, size_t klen);
int path_push_index(jt_buf *path, size_t i);
/* Prints a value compactly on one line. */
void print_compact(const jt_value *v);

int cmd_fmt(int argc, char **argv);
int cmd_min(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_paths(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_unpack(int argc, char **argv);
int cmd_sum(int argc, char **argv);

#endif
