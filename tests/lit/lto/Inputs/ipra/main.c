#include <stdio.h>
int f(int, int, int, int, int, int);
int k(int, int, int, int, int);
int main(int argc, char **argv) {
  (void)argv;
  printf("%d %d\n", f(argc, argc + 1, argc + 2, argc + 3, argc + 4, argc + 5),
         k(argc, argc + 1, argc + 2, argc + 3, argc + 4));
  return 0;
}
