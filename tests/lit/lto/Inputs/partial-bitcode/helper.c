int asm_answer(void);
int helper(int x) { return x * 3 + asm_answer(); }
