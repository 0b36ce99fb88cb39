/* Another definition of g(), loaded first (LD_PRELOAD): the same result, but it clobbers every
   register the calling convention lets it clobber, as another library's code may. */
int g(int x) {
  __asm__ volatile("xor %%ecx, %%ecx\n\txor %%edx, %%edx\n\txor %%esi, %%esi\n\t"
                   "xor %%r8d, %%r8d\n\txor %%r9d, %%r9d\n\txor %%r10d, %%r10d\n\t"
                   "xor %%r11d, %%r11d"
                   ::: "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory");
  return x + 1;
}
