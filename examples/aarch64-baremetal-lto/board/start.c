// Startup for the "qemu-user board": a bare-metal program run by qemu-aarch64 in user mode.
// qemu's loader plays the boot loader: it has set the stack pointer, placed .data at its run
// address (in RAM) and zeroed .bss, so unlike a flash-booted board nothing is copied here.
// What picolibc needs before main: the thread pointer for its thread-local errno, and the
// constructors; exit() then ends the program through semihosting with main's status.
#include <stdlib.h>

extern char __tls_base[];
void _set_tls(void *tls);
void __libc_init_array(void);
int main(void);

__attribute__((noreturn, used)) void _start(void) {
  _set_tls(__tls_base);
  __libc_init_array();
  exit(main());
}
