// The library's puts, which the program never calls: a link that defines it has a library
// call its pipeline made (printf("...\n") -> puts).
long sys_write(const char *, long);
extern int calls;
int puts(const char *s) {
  long n = 0;
  while (s[n])
    n++;
  calls++;
  sys_write(s, n);
  return (int)sys_write("\n", 1);
}
