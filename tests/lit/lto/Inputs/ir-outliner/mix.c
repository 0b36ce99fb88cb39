// Input of lto/ir-outliner.test: three functions in two files whose bodies differ only in a
// constant, called through a table so that LTO cannot inline them away. LLVM's IR outliner
// moves the shared body into one outlined_ir_func_N with the constant as an argument.
struct rec { int a, b, c, d, e; };
void mix_a(struct rec *r, int x) {
  r->a = r->b * x + r->c;
  r->d = (r->a ^ r->e) - x;
  r->e = r->d * r->c + r->b;
  r->c = r->e - r->a * 3;
}
void mix_b(struct rec *r, int x) {
  r->a = r->b * x + r->c;
  r->d = (r->a ^ r->e) - x;
  r->e = r->d * r->c + r->b;
  r->c = r->e - r->a * 5;
}
