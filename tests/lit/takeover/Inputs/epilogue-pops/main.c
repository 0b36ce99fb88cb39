#include <stdio.h>
int withReturn(int, int, int);
int withTailCall(int, int, int, int);
int g(int v) { return v * 3 - 7; }
int h4(int a, int b, int c, int d) { return a * 1000 + b * 100 + c * 10 + d; }
int main(void) {
  for (int i = 0; i < 6; ++i)
    printf("%d %d\n", withReturn(i, i * 5, 3 - i), withTailCall(i, 2, i * 7, 9 - i));
  return 0;
}
