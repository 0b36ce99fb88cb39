int checksum(const char *s) {
  int sum = 0;
  while (*s)
    sum = sum * 31 + *s++;
  return sum;
}
