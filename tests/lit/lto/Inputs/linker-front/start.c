// The program's entry: no C library, the result is the exit status (Linux's exit system call),
// so that qemu-aarch64 can run the image the relocatable link's output becomes.
int sum_mixed(int);
int xor_mixed(int);
int mix(int x) { return x * x + 7; }
void _start(void) {
  register long status asm("x0") = (sum_mixed(10) + xor_mixed(12)) & 0xff;
  register long number asm("x8") = 93; // exit
  asm volatile("svc #0" : : "r"(status), "r"(number));
  for (;;)
    ;
}
