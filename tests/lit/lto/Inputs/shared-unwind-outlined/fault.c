// Calls functions whose common reads the machine outliner made a function of its own (tails.c),
// then calls one with a bad pointer: the fault is in the outlined code. The SIGSEGV handler
// says where the unwind entry covering the faulting instruction begins (at the outlined
// function in clang's link; at the shared run's begin marker when the outlined function was
// moved into the run), then walks the stack with the unwinder: it gets from the signal frame
// to main() only if that entry describes the outlined code rightly.
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

int tail7(volatile int *, volatile const int *);
int tail5(volatile int *, volatile const int *);
int tail9(volatile int *, volatile const int *);
int tail3(volatile int *, volatile const int *);
int utail7(volatile int *, volatile const int *);
int utail5(volatile int *, volatile const int *);
int utail9(volatile int *, volatile const int *);
int utail3(volatile int *, volatile const int *);
int (*volatile tails[])(volatile int *, volatile const int *) = {tail7, tail5, tail9, tail3,
                                                                  utail7, utail5, utail9, utail3};
int main(void);

// Two small frameless functions: what the shared run covers besides the outlined code. With
// OUTLINED_ONLY they have frames (a call that is not a tail call), and the run holds nothing
// but the machine outliner's functions.
#ifdef OUTLINED_ONLY
__attribute__((noinline)) void touch(volatile int *m) { getpid(); *m += 1; }
__attribute__((noinline)) int twice(int x) { touch(&x); return 2 * x; }
#else
__attribute__((noinline)) void touch(volatile int *m) { *m += 1; }
int twice(int x) { return 2 * x; }
#endif
int (*volatile doubler)(int) = twice;

static int reached_main, frames;
static void *fault_entry;
static sigjmp_buf back;
static volatile int mark;

static _Unwind_Reason_Code visit(struct _Unwind_Context *C, void *Arg) {
  uintptr_t IP = _Unwind_GetIP(C);
  (void)Arg;
  if (_Unwind_FindEnclosingFunction((void *)(IP - 1)) == (void *)&main)
    reached_main = 1;
  // A frame whose return address is wrong can repeat itself forever: stop counting.
  return ++frames < 64 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

static void on_fault(int S, siginfo_t *Info, void *Context) {
  (void)S;
  (void)Info;
  ucontext_t *U = Context;
#if defined(__aarch64__)
  uintptr_t PC = U->uc_mcontext.pc;
#else
  uintptr_t PC = U->uc_mcontext.gregs[REG_RIP];
#endif
  fault_entry = _Unwind_FindEnclosingFunction((void *)PC);
  _Unwind_Backtrace(visit, 0);
  siglongjmp(back, 1);
}

int main(void) {
  static const int v[10] = {3, 5, 7, 11, 13, 17, 19, 23, 29, 31};
  int s = 0;
  for (int i = 0; i < 16; i++)
    s += tails[i & 7](&mark, v) * i + mark;
  printf("%d\n", doubler(s));
  struct sigaction A = {0};
  A.sa_sigaction = on_fault;
  A.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &A, 0);
  if (!sigsetjmp(back, 1))
    s += tails[2](&mark, (volatile const int *)(uintptr_t)16);
  // Where the unwind entry of the faulting instruction begins, from main() (the lit test
  // compares it with the shared run's begin marker, read from the symbol table).
  printf("fault entry: main+0x%lx\n", (unsigned long)((uintptr_t)fault_entry - (uintptr_t)&main));
  printf("unwound from the fault to main: %s\n", reached_main ? "yes" : "no");
  return 0;
}
