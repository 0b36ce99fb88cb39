// Input of lto/ir-outliner.test (see mix.c): the third copy, and main.
#include <stdio.h>
struct rec { int a, b, c, d, e; };
void mix_a(struct rec *r, int x);
void mix_b(struct rec *r, int x);
void mix_c(struct rec *r, int x) {
  r->a = r->b * x + r->c;
  r->d = (r->a ^ r->e) - x;
  r->e = r->d * r->c + r->b;
  r->c = r->e - r->a * 7;
}
int main(int argc, char **argv) {
  struct rec r = {argc, 2, 3, 4, 5};
  void (*tab[])(struct rec *, int) = {mix_a, mix_b, mix_c};
  for (int i = 0; i < 3; i++) tab[(argc + i) % 3](&r, argc + i);
  printf("%d %d %d %d %d\n", r.a, r.b, r.c, r.d, r.e);
  return 0;
}
