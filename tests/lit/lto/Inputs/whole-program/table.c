// A small symbol table: the program's and the library's shared helpers. Across files, a
// whole-program link inlines what one compile cannot and drops what nothing calls.
#include "wp.h"
#include <stdlib.h>
#include <string.h>

struct entry {
  char *key;
  long value;
  struct entry *next;
};

static struct entry *buckets[64];

unsigned wp_hash(const char *s) {
  unsigned h = 2166136261u;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

static struct entry **slot(const char *key) {
  struct entry **e = &buckets[wp_hash(key) % 64];
  while (*e && strcmp((*e)->key, key) != 0)
    e = &(*e)->next;
  return e;
}

void wp_set(const char *key, long value) {
  struct entry **e = slot(key);
  if (!*e) {
    *e = calloc(1, sizeof **e);
    (*e)->key = strdup(key);
  }
  (*e)->value = value;
}

long wp_get(const char *key, long fallback) {
  struct entry **e = slot(key);
  return *e ? (*e)->value : fallback;
}

// Called by nobody in the programs: only a whole-program link can drop it.
long wp_sum_all(void) {
  long sum = 0;
  for (int i = 0; i < 64; ++i)
    for (struct entry *e = buckets[i]; e; e = e->next)
      sum += e->value;
  return sum;
}

int wp_count(void) {
  int n = 0;
  for (int i = 0; i < 64; ++i)
    for (struct entry *e = buckets[i]; e; e = e->next)
      ++n;
  return n;
}
