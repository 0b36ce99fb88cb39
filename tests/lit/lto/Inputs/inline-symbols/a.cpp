#include "shared.h"
int libA(int X) { return twice(X); }
int (*libThrice())(int) { return &thrice; }
int *firstInt(int **V) { return firstOf(V); }
long *firstLong(long **V) { return firstOf(V); }
