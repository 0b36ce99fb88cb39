/* A dense switch: clang -Oz lowers it to a jump table, which a candidate without jump
   tables can beat; used by several takeover tests. */
#include <stdio.h>
int classify(int c) {
  switch (c) {
  case 0: return puts("zero");
  case 1: return puts("one");
  case 2: return puts("two");
  case 3: return puts("three");
  case 4: return puts("four");
  case 5: return puts("five");
  case 6: return puts("six");
  case 7: return puts("seven");
  default: return -1;
  }
}
int main(int argc, char **argv) { (void)argv; return classify(argc) < 0; }
