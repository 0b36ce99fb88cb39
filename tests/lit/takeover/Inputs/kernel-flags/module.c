// Kernel-style code for the kernel-flags test: what a kernel's or a boot loader's objects
// hold (string and copy loops that would use SIMD registers, a static key as `asm goto`, a
// switch, a device ring, a per-CPU-style register read), nothing from a C library.
typedef unsigned long size_t;
typedef unsigned int u32;
typedef unsigned long u64;

struct ring {
  u32 head, tail;
  u64 slots[64];
};

struct request {
  u64 addr, len, flags, cookie;
  u32 op, status;
  char tag[24];
};

// The kernel's own memcpy (lib/string.c's byte loop): struct copies call it, and -fno-builtin
// keeps the loop from becoming a call to itself.
void *memcpy(void *dst, const void *src, size_t n) {
  char *d = dst;
  const char *s = src;
  while (n--)
    *d++ = *s++;
  return dst;
}

size_t kstrlcpy(char *dst, const char *src, size_t size) {
  size_t n = 0;
  while (src[n])
    n++;
  if (size) {
    size_t c = n >= size ? size - 1 : n;
    for (size_t i = 0; i < c; i++)
      dst[i] = src[i];
    dst[c] = 0;
  }
  return n;
}

void kmemxor(unsigned char *dst, const unsigned char *a, const unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    dst[i] = a[i] ^ b[i];
}

u32 csum_partial(const unsigned char *p, size_t n, u32 sum) {
  u64 s = sum;
  for (size_t i = 0; i + 1 < n; i += 2)
    s += (u32)(p[i] << 8 | p[i + 1]);
  if (n & 1)
    s += (u32)p[n - 1] << 8;
  while (s >> 16)
    s = (s & 0xffff) + (s >> 16);
  return (u32)s;
}

int ring_push(struct ring *r, u64 v) {
  if (r->head - r->tail == 64)
    return -1;
  r->slots[r->head++ % 64] = v;
  return 0;
}

int ring_pop(struct ring *r, u64 *v) {
  if (r->head == r->tail)
    return -1;
  *v = r->slots[r->tail++ % 64];
  return 0;
}

void request_copy(struct request *dst, const struct request *src) { *dst = *src; }

// A static key: the branch is patched at run time, so the compiler emits `asm goto`.
static inline int key_enabled(void) {
  asm goto("1: nop\n\t.pushsection __jump_table, \"aw\"\n\t.quad 1b, %l[yes]\n\t.popsection"
           : : : : yes);
  return 0;
yes:
  return 1;
}

u64 read_tpidr(void) {
  u64 v;
  asm volatile("mrs %0, tpidr_el1" : "=r"(v));
  return v;
}

int handle(struct request *rq, struct ring *r) {
  if (key_enabled())
    rq->flags |= 1;
  switch (rq->op) {
  case 0: return ring_push(r, rq->addr);
  case 1: return ring_pop(r, &rq->addr);
  case 2: rq->status = csum_partial((const unsigned char *)rq->tag, sizeof rq->tag, 0); return 0;
  case 3: return (int)kstrlcpy(rq->tag, "kernel", sizeof rq->tag);
  case 4: rq->cookie = read_tpidr(); return 0;
  case 5: rq->len = 0; return 1;
  case 6: rq->flags = ~rq->flags; return 2;
  default: return -22;
  }
}
