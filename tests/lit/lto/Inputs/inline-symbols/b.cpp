#include "shared.h"
int libB(int X) {
  try {
    return twice(X) + 1;
  } catch (const Big &B) {
    return -B.Value;
  }
}
