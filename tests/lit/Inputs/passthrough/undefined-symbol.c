/* undefined-symbol.c: compiles cleanly but references a function no library defines, so the
 * link fails with clang's "linker command failed" error and the linker's exit status. */
#include <stdio.h>

int checksum_not_defined_anywhere(const char *text);

int main(void) {
  printf("%d\n", checksum_not_defined_anywhere("abc"));
  return 0;
}
