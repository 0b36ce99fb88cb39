/* main.c: the cmake-probe program; includes a local header so the dependency file matters. */
#include "probe.h"
#include <stdio.h>

int main(void) {
  printf("probe %d\n", probe_value(6));
  return 0;
}
