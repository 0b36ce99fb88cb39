/* hashtab.c: an open-addressing hash table with string interning and word counting.
 *
 * Size-optimizer interest: pointer-chasing loops, inlined hash functions, realloc-based
 * growth paths, qsort callbacks, and a deterministic pseudo-random text generator.
 * Prints the table's statistics and the most frequent words. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- String interning: every distinct string is stored once in an arena. ---- */

struct Arena {
  char *buf;
  size_t used, cap;
};

static const char *arenaDup(struct Arena *a, const char *s, size_t n) {
  if (a->used + n + 1 > a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 1024;
    while (cap < a->used + n + 1) cap *= 2;
    char *nb = realloc(a->buf, cap);
    if (!nb) { perror("realloc"); exit(1); }
    a->buf = nb;
    a->cap = cap;
  }
  /* Offsets, not pointers, survive realloc: callers get a stable offset encoded below. */
  memcpy(a->buf + a->used, s, n);
  a->buf[a->used + n] = 0;
  const char *r = (const char *)(uintptr_t)a->used;
  a->used += n + 1;
  return r;
}

static const char *arenaStr(const struct Arena *a, const char *off) {
  return a->buf + (uintptr_t)off;
}

/* FNV-1a, 32 bits. */
static uint32_t fnv1a(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

struct Entry {
  uint32_t hash;
  uint32_t len;
  const char *key; /* arena offset; NULL (offset 0 is reserved) means empty */
  long count;
};

struct Table {
  struct Entry *slots;
  size_t cap;   /* power of two */
  size_t size;
  size_t probes, lookups, grows;
  struct Arena arena;
};

static void tableInit(struct Table *t) {
  memset(t, 0, sizeof *t);
  t->cap = 16;
  t->slots = calloc(t->cap, sizeof *t->slots);
  if (!t->slots) { perror("calloc"); exit(1); }
  arenaDup(&t->arena, "", 0); /* reserve offset 0 */
}

static void tableFree(struct Table *t) {
  free(t->slots);
  free(t->arena.buf);
}

static void tableGrow(struct Table *t) {
  size_t ncap = t->cap * 2;
  struct Entry *ns = calloc(ncap, sizeof *ns);
  if (!ns) { perror("calloc"); exit(1); }
  for (size_t i = 0; i < t->cap; i++) {
    struct Entry *e = &t->slots[i];
    if (!e->key) continue;
    size_t j = e->hash & (ncap - 1);
    while (ns[j].key) j = (j + 1) & (ncap - 1);
    ns[j] = *e;
  }
  free(t->slots);
  t->slots = ns;
  t->cap = ncap;
  t->grows++;
}

/* Finds or inserts the string; returns its entry. */
static struct Entry *tableIntern(struct Table *t, const char *s, size_t n) {
  if ((t->size + 1) * 4 > t->cap * 3)
    tableGrow(t);
  uint32_t h = fnv1a(s, n);
  size_t i = h & (t->cap - 1);
  t->lookups++;
  for (;;) {
    struct Entry *e = &t->slots[i];
    t->probes++;
    if (!e->key) {
      e->hash = h;
      e->len = (uint32_t)n;
      e->key = arenaDup(&t->arena, s, n);
      e->count = 0;
      t->size++;
      return e;
    }
    if (e->hash == h && e->len == n && memcmp(arenaStr(&t->arena, e->key), s, n) == 0)
      return e;
    i = (i + 1) & (t->cap - 1);
  }
}

static struct Entry *tableFind(struct Table *t, const char *s) {
  size_t n = strlen(s);
  uint32_t h = fnv1a(s, n);
  for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    struct Entry *e = &t->slots[i];
    if (!e->key) return NULL;
    if (e->hash == h && e->len == n && memcmp(arenaStr(&t->arena, e->key), s, n) == 0)
      return e;
  }
}

/* ---- A deterministic text generator. ---- */

static uint32_t rngState = 12345;
static uint32_t rng(void) {
  rngState ^= rngState << 13;
  rngState ^= rngState >> 17;
  rngState ^= rngState << 5;
  return rngState;
}

static const char *const Syllables[] = {
  "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qua", "pri", "sto",
};
#define NSYL (sizeof Syllables / sizeof Syllables[0])

static size_t makeWord(char *buf) {
  /* Zipf-ish: short words are much more frequent. */
  unsigned parts = 1 + (rng() % 8 == 0);
  parts += rng() % 4 == 0;
  size_t n = 0;
  for (unsigned p = 0; p < parts; p++) {
    unsigned k = rng() % NSYL;
    if (rng() % 3) k %= 4; /* skew towards the first syllables */
    size_t l = strlen(Syllables[k]);
    memcpy(buf + n, Syllables[k], l);
    n += l;
  }
  buf[n] = 0;
  return n;
}

/* ---- Reporting. ---- */

static const struct Arena *sortArena;

static int byCountThenName(const void *pa, const void *pb) {
  const struct Entry *a = *(const struct Entry *const *)pa;
  const struct Entry *b = *(const struct Entry *const *)pb;
  if (a->count != b->count) return a->count < b->count ? 1 : -1;
  return strcmp(arenaStr(sortArena, a->key), arenaStr(sortArena, b->key));
}

int main(void) {
  struct Table t;
  tableInit(&t);
  char word[64];
  long words = 0;
  for (int i = 0; i < 20000; i++) {
    size_t n = makeWord(word);
    tableIntern(&t, word, n)->count++;
    words++;
  }
  struct Entry **all = malloc(t.size * sizeof *all);
  if (!all) { perror("malloc"); return 1; }
  size_t k = 0;
  for (size_t i = 0; i < t.cap; i++)
    if (t.slots[i].key) all[k++] = &t.slots[i];
  sortArena = &t.arena;
  qsort(all, k, sizeof *all, byCountThenName);

  printf("words %ld distinct %zu capacity %zu grows %zu\n", words, t.size, t.cap, t.grows);
  printf("average probes per lookup: %.3f\n", (double)t.probes / (double)t.lookups);
  printf("arena bytes %zu\n", t.arena.used);
  for (size_t i = 0; i < 8 && i < k; i++)
    printf("%2zu. %-12s %ld\n", i + 1, arenaStr(&t.arena, all[i]->key), all[i]->count);

  const char *probes[] = {"ka", "kalo", "quapristo", "nope", "zeze"};
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
    struct Entry *e = tableFind(&t, probes[i]);
    printf("find %-10s -> %ld\n", probes[i], e ? e->count : -1L);
  }
  uint32_t digest = 0;
  for (size_t i = 0; i < k; i++)
    digest = digest * 33u ^ all[i]->hash ^ (uint32_t)all[i]->count;
  printf("digest %08x\n", (unsigned)digest);
  free(all);
  tableFree(&t);
  return 0;
}
