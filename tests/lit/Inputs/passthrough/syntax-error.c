/* syntax-error.c: a missing operand on line 6 and an undeclared identifier on line 10; the
 * diagnostics (file:line:col: error: ...) and exit status must be clang's. */
#include <stdio.h>

static int twice(int x) {
  return x * ;
}

int main(void) {
  printf("%d\n", twice(undeclared_value));
  return 0;
}
