// sensord: a small sensor-node firmware (simulated): samples arrive in a ring buffer, are
// filtered in fixed point, framed with a CRC, and a command interpreter answers queries.
#pragma once
#include <stddef.h>
#include <stdint.h>

#define RING_SIZE 32u

struct ring {
  int16_t data[RING_SIZE];
  uint32_t head, tail;
};
void ring_init(struct ring *r);
int ring_push(struct ring *r, int16_t v);  // 0 when full
int ring_pop(struct ring *r, int16_t *v);   // 0 when empty
uint32_t ring_count(const struct ring *r);

uint16_t crc16_ccitt(const uint8_t *p, size_t n);

struct filter {
  int32_t acc;   // Q8 exponential moving average
  int16_t min, max;
  uint32_t n;
};
void filter_init(struct filter *f);
int16_t filter_step(struct filter *f, int16_t sample);

// Runs one command line, writes the reply (NUL-terminated) into out; returns 0 on success.
int run_command(const char *line, struct ring *r, struct filter *f, char *out, size_t cap);
