#include "sensord.h"
#include <stdio.h>

// The commands a host would send over the serial line, replayed.
static const char *const script[] = {
    "push 100 104 98 97 120 130 128",
    "stats",
    "frame",
    "stats",
    "push -5 -7 0 3 1000 -1000 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 "
    "12 12 12 12 12 12 12 12 12",
    "frame",
    "stats",
    "calibrate",
    "reset",
    "stats",
};

int main(void) {
  struct ring r;
  struct filter f;
  char reply[96];
  int errors = 0;
  ring_init(&r);
  filter_init(&f);
  for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
    errors += run_command(script[i], &r, &f, reply, sizeof reply);
    printf("> %.24s\n%s\n", script[i], reply);
  }
  printf("errors %d\n", errors);
  return 0;
}
