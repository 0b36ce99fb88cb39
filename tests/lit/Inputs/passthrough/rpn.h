/* rpn.h: interface of the two-file RPN calculator (rpn-main.c + rpn-eval.c), used to test
 * multi-file compiles and links. */
#ifndef RPN_H
#define RPN_H

enum RpnError { RPN_OK, RPN_UNDERFLOW, RPN_OVERFLOW, RPN_DIV_ZERO, RPN_BAD_TOKEN, RPN_LEFTOVER };

struct RpnResult {
  enum RpnError error;
  long value;
  int position; /* token index of the error */
};

struct RpnResult rpnEval(const char *expr);
const char *rpnErrorName(enum RpnError e);

#endif
