#include <stdio.h>
int helper(int);
int twice(int);
int main(void) {
  printf("%d\n", twice(helper(1)));
  return 0;
}
