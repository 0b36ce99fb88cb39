// Calls the leaves through pointers (so they stay functions), then waits in spin() for a
// timer signal whose handler walks the stack with the unwinder: it must get from the signal
// frame through spin() up to main(), which only spin()'s unwind entry (its own, or the shared
// one) makes possible.
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <unwind.h>

int square(int);
int next(int);
int mix(int, int);
unsigned rotate(unsigned, unsigned);
int spin(int);
int framed(int);
int (*volatile unary[])(int) = {square, next};
extern volatile int stop;
int main(void);

static int frames, reached_main;

static _Unwind_Reason_Code visit(struct _Unwind_Context *C, void *Arg) {
  uintptr_t IP = _Unwind_GetIP(C);
  (void)Arg;
  ++frames;
  // The function the unwinder finds this frame in, by its unwind entry: main() has its own.
  if (_Unwind_FindEnclosingFunction((void *)(IP - 1)) == (void *)&main)
    reached_main = 1;
  return _URC_NO_REASON;
}

static void on_timer(int S) {
  (void)S;
  _Unwind_Backtrace(visit, 0);
  stop = 1;
}

int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += unary[i & 1](i) + mix(i, s) + (int)rotate((unsigned)s, (unsigned)i) + framed(i);
  printf("%d\n", s);
  signal(SIGALRM, on_timer);
  struct itimerval T = {{0, 0}, {0, 20000}};
  setitimer(ITIMER_REAL, &T, 0);
  int r = spin(s);
  printf("unwound from spin to main: %s\n", reached_main ? "yes" : "no");
  return r == 12345 ? 1 : 0;
}
