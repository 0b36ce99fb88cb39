/* rpn-main.c: runs a fixed list of expressions through rpnEval (rpn-eval.c). */
#include "rpn.h"
#include <stdio.h>

int main(void) {
  static const char *const Exprs[] = {
    "3 4 + 2 *", "1 2 3 4 5 + + + +", "10 3 %", "2 d * d * d *", "7 0 /",
    "1 +", "1 2", "5 x *", "-8 2 /", "100 7 - 3 * 11 %",
  };
  long sum = 0;
  for (unsigned i = 0; i < sizeof Exprs / sizeof Exprs[0]; i++) {
    struct RpnResult r = rpnEval(Exprs[i]);
    if (r.error == RPN_OK) {
      printf("%-20s = %ld\n", Exprs[i], r.value);
      sum += r.value;
    } else {
      printf("%-20s : %s at token %d\n", Exprs[i], rpnErrorName(r.error), r.position);
    }
  }
  printf("sum %ld\n", sum);
  return 0;
}
