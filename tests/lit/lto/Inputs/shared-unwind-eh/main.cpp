// Calls each step of the library with a value it lets through (0) and one that throws past
// it (-1): every throw must reach this handler.
#include "failure.h"
#include <cstdio>

int main() {
  int (*const Steps[])(int) = {step1, step2, step3, step4, step5, step6};
  int Sum = 0, Caught = 0;
  for (int (*Step)(int) : Steps) {
    Sum += Step(0);
    try {
      Sum += Step(-1);
    } catch (const Failure &F) {
      Caught += F.code;
    }
  }
  Sum += twice(1) + thrice(1) + clamp(150) + parity(3);
  std::printf("sum %d, caught %d\n", Sum, Caught);
  return 0;
}
