/* inline-asm-error.c: the error comes from the integrated assembler during code generation,
 * i.e. from the backend smartcc's candidates also run; it must be reported exactly as clang
 * reports it (no duplicates from candidate processes) with clang's exit status. */
int value(void) {
  int r;
  __asm__("not_an_instruction %0" : "=r"(r));
  return r;
}
