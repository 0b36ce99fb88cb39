// Reads "name = expression" lines and prints each value; uses the library and its own
// static archive of the same table code.
#include "wp.h"
#include <stdio.h>
#include <string.h>

long crc_step(long, long); // assembly, no bitcode

int main(void) {
  char line[256];
  long check = 0;
  while (fgets(line, sizeof line, stdin)) {
    char *eq = strchr(line, '=');
    if (!eq)
      continue;
    *eq = 0;
    char name[32];
    if (sscanf(line, "%31s", name) != 1)
      continue;
    long v = wp_eval(eq + 1);
    wp_set(name, v);
    check = crc_step(check, v);
    printf("%s = %ld\n", name, v);
  }
  printf("%d names, check %ld, version %ld\n", wp_count(), check, wp_version());
  return 0;
}
