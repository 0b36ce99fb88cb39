// A function nothing in the program calls needs libm: with --as-needed the baseline needs
// libm.so.6 and a whole-program link, having dropped it, would not.
#include <math.h>
double wp_unused_cos(double x) { return cos(x) * 3.0; }
