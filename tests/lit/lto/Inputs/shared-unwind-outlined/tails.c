// Functions that end alike after a call of their own: each has a frame (it saves the return
// address for the call), then stores its own mark and reads the same way (volatile accesses
// stay in order). The machine outliner (on by default for AArch64 at -Oz) makes the common
// reads one function of their own, called with the return address already saved: frameless.
#define TAIL(p) ((p[0] * p[1] - p[2] * p[3]) ^ (p[4] + p[5] * p[6]) ^ (p[7] * p[8] + p[9]))
void touch(volatile int *);
int tail7(volatile int *mark, volatile const int *p) { touch(mark); *mark = 7; return TAIL(p) + *mark; }
int tail5(volatile int *mark, volatile const int *p) { touch(mark); *mark = 5; return TAIL(p) + *mark; }
int tail9(volatile int *mark, volatile const int *p) { touch(mark); *mark = 9; return TAIL(p) + *mark; }
int tail3(volatile int *mark, volatile const int *p) { touch(mark); *mark = 3; return TAIL(p) + *mark; }

// A second family with other common reads: a second outlined function without a frame.
#define TAIL2(p) ((p[0] + p[1] + p[2]) * (p[3] - p[4]) + (p[5] | p[6]) - (p[7] & p[8]) * p[9])
int utail7(volatile int *mark, volatile const int *p) { touch(mark); *mark = 17; return TAIL2(p) - *mark; }
int utail5(volatile int *mark, volatile const int *p) { touch(mark); *mark = 15; return TAIL2(p) - *mark; }
int utail9(volatile int *mark, volatile const int *p) { touch(mark); *mark = 19; return TAIL2(p) - *mark; }
int utail3(volatile int *mark, volatile const int *p) { touch(mark); *mark = 13; return TAIL2(p) - *mark; }
