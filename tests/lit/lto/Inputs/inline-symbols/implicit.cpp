#define NO_EXTERN_BOX
#include "shared.h"
long libBox(long V) { return Box<long>{V}.get() + thrice(1); }
