// Input of takeover/ir-outliner.test: four functions whose bodies differ only in a constant,
// called through a table so that -Oz cannot inline them away. LLVM's IR outliner, run on
// clang's optimized module (candidate oz-late-ir-outliner), moves the shared body into one
// outlined_ir_func_N that takes the constant as an argument.
#include <stdio.h>
struct rec { int a, b, c, d, e, f; };
#define MIX(NAME, K)                                                                          \
  void NAME(struct rec *r, int x) {                                                           \
    r->a = r->b * x + r->c;                                                                   \
    r->d = (r->a ^ r->e) - x;                                                                 \
    r->e = r->d * r->c + r->b;                                                                \
    r->f = (r->e >> 3) + r->d * r->a;                                                         \
    r->b = r->f - (r->c | r->e);                                                              \
    r->c = r->e - r->a * K;                                                                   \
  }
MIX(mix_a, 3)
MIX(mix_b, 5)
MIX(mix_c, 7)
MIX(mix_d, 11)
int main(int argc, char **argv) {
  (void)argv;
  struct rec r = {argc, 2, 3, 4, 5, 6};
  void (*tab[])(struct rec *, int) = {mix_a, mix_b, mix_c, mix_d};
  for (int i = 0; i < 8; i++) tab[(argc + i) % 4](&r, argc + i);
  printf("%d %d %d %d %d %d\n", r.a, r.b, r.c, r.d, r.e, r.f);
  return 0;
}
