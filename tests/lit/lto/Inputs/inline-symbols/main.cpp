#include "shared.h"
#include <cstdio>

int main() {
  std::printf("libA(5) = %d\n", libA(5));
  std::printf("libB(3) = %d, libB(2000) = %d\n", libB(3), libB(2000));
  try {
    libA(5000);
    std::puts("no exception");
  } catch (const Big &B) {
    std::printf("caught Big %d from the library\n", B.Value);
  }
  std::printf("thrice: %s address\n", libThrice() == &thrice ? "one" : "two");
  Box<long> B{41};
  std::printf("Box<long>::get = %ld, libBox = %ld, twice(4) = %d\n", B.get(), libBox(1),
              twice(4));
  int I = 7;
  long L = 8;
  int *IP = &I;
  long *LP = &L;
  std::printf("firstInt = %d, firstLong = %ld\n", *firstInt(&IP), *firstLong(&LP));
  return 0;
}
