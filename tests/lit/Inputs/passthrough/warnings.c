/* warnings.c: frontend warnings under -Wall -Wextra (unused variable, sign compare) plus a
 * warning from the integrated assembler during code generation; each must appear once. */
int count_below(const int *values, unsigned n, int limit) {
  int unused;
  int count = 0;
  for (int i = 0; i < n; i++)
    if (values[i] < limit)
      count++;
  __asm__(".warning \"assembler warning from inline asm\"");
  return count;
}

int lookup(int key) {
  switch (key) {
  case 1: return 10;
  case 2: return 20;
  case 3: return 35;
  case 4: return 40;
  case 5: return 55;
  case 6: return 61;
  default: return -1;
  }
}
