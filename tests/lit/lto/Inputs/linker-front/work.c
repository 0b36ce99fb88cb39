// A kernel-style translation unit: freestanding, no libc, static tables.
int mix(int);
static int table[16];
int sum_mixed(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += mix(i) * 3;
    table[i & 15] += s;
  }
  return s + table[3];
}
int xor_mixed(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += mix(i) * 5;
    table[i & 15] ^= s;
  }
  return s + table[5];
}
