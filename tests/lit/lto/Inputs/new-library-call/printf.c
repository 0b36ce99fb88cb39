// The library's printf: the format as it is (no conversions), counted.
long sys_write(const char *, long);
int calls;
__attribute__((noinline)) int printf(const char *fmt, ...) {
  long n = 0;
  while (fmt[n])
    n++;
  calls++;
  return (int)sys_write(fmt, n);
}
