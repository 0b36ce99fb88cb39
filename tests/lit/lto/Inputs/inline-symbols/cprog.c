// A C program of two files for the per-TU link of an executable.
#include <stdio.h>
int checksum(const char *s);
static int twice(int x) { return 2 * x; }
int main(int argc, char **argv) {
  (void)argv;
  printf("checksum %d, twice %d\n", checksum("per-TU link"), twice(argc + 20));
  return 0;
}
