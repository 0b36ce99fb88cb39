#include "sensord.h"

void filter_init(struct filter *f) {
  f->acc = 0;
  f->min = INT16_MAX;
  f->max = INT16_MIN;
  f->n = 0;
}

// Exponential moving average with alpha = 1/8, in Q8 fixed point.
int16_t filter_step(struct filter *f, int16_t sample) {
  int32_t s = (int32_t)sample * 256;
  f->acc = f->n == 0 ? s : f->acc + (s - f->acc) / 8;
  if (sample < f->min)
    f->min = sample;
  if (sample > f->max)
    f->max = sample;
  f->n++;
  return (int16_t)(f->acc / 256);
}
