#include "sensord.h"
#include <stdio.h>
#include <string.h>

static int starts(const char *line, const char *word) {
  size_t n = strlen(word);
  return strncmp(line, word, n) == 0 && (line[n] == 0 || line[n] == ' ');
}

// A frame: the averaged samples as little-endian bytes, then their CRC.
static int frame(struct ring *r, struct filter *f, char *out, size_t cap) {
  uint8_t bytes[2 * RING_SIZE];
  size_t n = 0;
  int16_t v;
  while (ring_pop(r, &v)) {
    int16_t avg = filter_step(f, v);
    bytes[n++] = (uint8_t)(avg & 0xFF);
    bytes[n++] = (uint8_t)((uint16_t)avg >> 8);
  }
  return snprintf(out, cap, "frame %zu bytes crc %04x", n, crc16_ccitt(bytes, n)) < 0;
}

int run_command(const char *line, struct ring *r, struct filter *f, char *out, size_t cap) {
  if (starts(line, "push")) {
    int v, pushed = 0, off = 4, k;
    while (sscanf(line + off, "%d%n", &v, &k) == 1) {
      pushed += ring_push(r, (int16_t)v);
      off += k;
    }
    snprintf(out, cap, "pushed %d, queued %u", pushed, (unsigned)ring_count(r));
    return 0;
  }
  if (starts(line, "frame"))
    return frame(r, f, out, cap);
  if (starts(line, "stats")) {
    snprintf(out, cap, "n %u min %d max %d avg %d", (unsigned)f->n, f->n ? f->min : 0,
             f->n ? f->max : 0, (int)(f->acc / 256));
    return 0;
  }
  if (starts(line, "reset")) {
    ring_init(r);
    filter_init(f);
    snprintf(out, cap, "reset");
    return 0;
  }
  snprintf(out, cap, "error: unknown command '%s'", line);
  return 1;
}
