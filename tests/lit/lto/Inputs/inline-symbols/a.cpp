#include "shared.h"
int libA(int X) { return twice(X); }
int (*libThrice())(int) { return &thrice; }
