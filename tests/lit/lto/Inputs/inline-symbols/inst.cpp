#include "shared.h"
template struct Box<long>;
