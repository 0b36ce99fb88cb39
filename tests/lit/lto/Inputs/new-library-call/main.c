// The program: its greeting is a constant only to a whole-program optimizer (nothing stores
// to it), which then sees printf("hello\n") and may call puts instead.
int printf(const char *, ...);
void sys_exit(int);
extern int calls;
const char *greeting = "hello from the program\n";
void _start(void) {
  printf(greeting);
  sys_exit(calls == 1 ? 0 : 1);
}
