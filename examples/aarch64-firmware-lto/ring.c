#include "sensord.h"

void ring_init(struct ring *r) { r->head = r->tail = 0; }

uint32_t ring_count(const struct ring *r) { return r->head - r->tail; }

int ring_push(struct ring *r, int16_t v) {
  if (ring_count(r) == RING_SIZE)
    return 0;
  r->data[r->head++ % RING_SIZE] = v;
  return 1;
}

int ring_pop(struct ring *r, int16_t *v) {
  if (ring_count(r) == 0)
    return 0;
  *v = r->data[r->tail++ % RING_SIZE];
  return 1;
}
