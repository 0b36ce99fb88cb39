/* calc driver: evaluates one statement per input line, then prints a summary with a
 * checksum of every result so two builds can be compared at a glance. */
#include "calc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static uint32_t fnv1a(uint32_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  while (n--) {
    h ^= *p++;
    h *= 16777619u;
  }
  return h;
}

int main(int argc, char **argv) {
  FILE *in = stdin;
  if (argc > 1 && !(in = fopen(argv[1], "r"))) {
    perror(argv[1]);
    return 2;
  }
  value_t vars[NVARS] = {0};
  unsigned long histogram[OP_COUNT] = {0};
  struct program prog;
  char line[512];
  unsigned lines = 0, errors = 0;
  uint32_t checksum = 2166136261u;

  while (fgets(line, sizeof line, in)) {
    line[strcspn(line, "\n")] = '\0';
    int var;
    value_t result = 0;
    const char *err = compile_line(line, &prog, &var);
    if (err && strcmp(err, "empty") == 0)
      continue;  /* blank or comment-only line */
    lines++;
    if (!err)
      err = vm_run(&prog, vars, &result);
    if (err) {
      errors++;
      printf("%-32s error: %s\n", line, err);
      continue;
    }
    for (size_t i = 0; i < prog.len; i++)
      histogram[prog.code[i]]++;
    checksum = fnv1a(checksum, &result, sizeof result);
    printf("%-32s = %" PRId64 "\n", line, result);
  }
  if (in != stdin)
    fclose(in);

  printf("\n%u statements, %u errors, checksum %08" PRIx32 "\nopcodes:", lines, errors,
         checksum);
  for (int o = 0; o < OP_COUNT; o++)
    if (histogram[o])
      printf(" %s=%lu", op_name((enum op)o), histogram[o]);
  printf("\n");
  return 0;
}
