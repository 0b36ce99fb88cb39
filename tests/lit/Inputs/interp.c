/* interp.c: a small stack-machine bytecode interpreter with one big dispatch switch.
 *
 * Size-optimizer interest: a dense switch over ~30 opcodes (jump table vs. compare tree),
 * repeated push/pop sequences (outlining), and a tiny assembler with a string table.
 * Prints a deterministic trace summary and the results of three programs. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum Op {
  OP_HALT, OP_PUSH, OP_POP, OP_DUP, OP_SWAP, OP_OVER,
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG,
  OP_AND, OP_OR, OP_XOR, OP_NOT, OP_SHL, OP_SHR,
  OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
  OP_JMP, OP_JZ, OP_JNZ, OP_CALL, OP_RET,
  OP_LOAD, OP_STORE, OP_PRINT, OP_INC, OP_DEC,
  OP_COUNT
};

static const char *const OpNames[OP_COUNT] = {
  "halt", "push", "pop", "dup", "swap", "over",
  "add", "sub", "mul", "div", "mod", "neg",
  "and", "or", "xor", "not", "shl", "shr",
  "eq", "ne", "lt", "le", "gt", "ge",
  "jmp", "jz", "jnz", "call", "ret",
  "load", "store", "print", "inc", "dec",
};

/* Opcodes taking one immediate operand. */
static int hasOperand(int op) {
  switch (op) {
  case OP_PUSH: case OP_JMP: case OP_JZ: case OP_JNZ:
  case OP_CALL: case OP_LOAD: case OP_STORE:
    return 1;
  default:
    return 0;
  }
}

#define STACK_MAX 256
#define CALL_MAX 64
#define MEM_MAX 32

struct VM {
  int32_t stack[STACK_MAX];
  int sp;
  int calls[CALL_MAX];
  int csp;
  int32_t mem[MEM_MAX];
  unsigned long steps;
  unsigned long opcount[OP_COUNT];
  uint32_t outhash;
  int printed;
};

enum Status { ST_OK, ST_UNDERFLOW, ST_OVERFLOW, ST_DIVZERO, ST_BADOP, ST_STEPS };

static const char *statusName(enum Status s) {
  switch (s) {
  case ST_OK: return "ok";
  case ST_UNDERFLOW: return "stack underflow";
  case ST_OVERFLOW: return "stack overflow";
  case ST_DIVZERO: return "division by zero";
  case ST_BADOP: return "bad opcode";
  case ST_STEPS: return "step limit";
  }
  return "?";
}

#define NEED(n) do { if (vm->sp < (n)) return ST_UNDERFLOW; } while (0)
#define ROOM(n) do { if (vm->sp + (n) > STACK_MAX) return ST_OVERFLOW; } while (0)
#define BINOP(expr) do { NEED(2); int32_t b = vm->stack[--vm->sp]; \
    int32_t a = vm->stack[vm->sp - 1]; vm->stack[vm->sp - 1] = (expr); (void)a; (void)b; } while (0)

static enum Status run(struct VM *vm, const int32_t *code, int len, unsigned long maxSteps) {
  int pc = 0;
  while (pc < len) {
    if (++vm->steps > maxSteps)
      return ST_STEPS;
    int op = code[pc++];
    if (op < 0 || op >= OP_COUNT)
      return ST_BADOP;
    vm->opcount[op]++;
    int32_t imm = hasOperand(op) ? code[pc++] : 0;
    switch (op) {
    case OP_HALT: return ST_OK;
    case OP_PUSH: ROOM(1); vm->stack[vm->sp++] = imm; break;
    case OP_POP: NEED(1); vm->sp--; break;
    case OP_DUP: NEED(1); ROOM(1); vm->stack[vm->sp] = vm->stack[vm->sp - 1]; vm->sp++; break;
    case OP_SWAP: {
      NEED(2);
      int32_t t = vm->stack[vm->sp - 1];
      vm->stack[vm->sp - 1] = vm->stack[vm->sp - 2];
      vm->stack[vm->sp - 2] = t;
      break;
    }
    case OP_OVER: NEED(2); ROOM(1); vm->stack[vm->sp] = vm->stack[vm->sp - 2]; vm->sp++; break;
    case OP_ADD: BINOP((int32_t)((uint32_t)a + (uint32_t)b)); break;
    case OP_SUB: BINOP((int32_t)((uint32_t)a - (uint32_t)b)); break;
    case OP_MUL: BINOP((int32_t)((uint32_t)a * (uint32_t)b)); break;
    case OP_DIV:
      NEED(2);
      if (vm->stack[vm->sp - 1] == 0) return ST_DIVZERO;
      BINOP(a / b);
      break;
    case OP_MOD:
      NEED(2);
      if (vm->stack[vm->sp - 1] == 0) return ST_DIVZERO;
      BINOP(a % b);
      break;
    case OP_NEG: NEED(1); vm->stack[vm->sp - 1] = -vm->stack[vm->sp - 1]; break;
    case OP_AND: BINOP(a & b); break;
    case OP_OR: BINOP(a | b); break;
    case OP_XOR: BINOP(a ^ b); break;
    case OP_NOT: NEED(1); vm->stack[vm->sp - 1] = !vm->stack[vm->sp - 1]; break;
    case OP_SHL: BINOP((int32_t)((uint32_t)a << (b & 31))); break;
    case OP_SHR: BINOP((int32_t)((uint32_t)a >> (b & 31))); break;
    case OP_EQ: BINOP(a == b); break;
    case OP_NE: BINOP(a != b); break;
    case OP_LT: BINOP(a < b); break;
    case OP_LE: BINOP(a <= b); break;
    case OP_GT: BINOP(a > b); break;
    case OP_GE: BINOP(a >= b); break;
    case OP_JMP: pc = imm; break;
    case OP_JZ: NEED(1); if (vm->stack[--vm->sp] == 0) pc = imm; break;
    case OP_JNZ: NEED(1); if (vm->stack[--vm->sp] != 0) pc = imm; break;
    case OP_CALL:
      if (vm->csp >= CALL_MAX) return ST_OVERFLOW;
      vm->calls[vm->csp++] = pc;
      pc = imm;
      break;
    case OP_RET:
      if (vm->csp == 0) return ST_UNDERFLOW;
      pc = vm->calls[--vm->csp];
      break;
    case OP_LOAD: ROOM(1); vm->stack[vm->sp++] = vm->mem[imm & (MEM_MAX - 1)]; break;
    case OP_STORE: NEED(1); vm->mem[imm & (MEM_MAX - 1)] = vm->stack[--vm->sp]; break;
    case OP_PRINT:
      NEED(1);
      vm->outhash = vm->outhash * 31u + (uint32_t)vm->stack[--vm->sp];
      vm->printed++;
      break;
    case OP_INC: NEED(1); vm->stack[vm->sp - 1]++; break;
    case OP_DEC: NEED(1); vm->stack[vm->sp - 1]--; break;
    default: return ST_BADOP;
    }
  }
  return ST_OK;
}

/* A tiny assembler: "push 3 push 4 add print halt"; labels are "@name:" and "@name". */
struct Label { char name[16]; int addr; };

static int lookupOp(const char *word) {
  for (int i = 0; i < OP_COUNT; i++)
    if (strcmp(OpNames[i], word) == 0)
      return i;
  return -1;
}

static int assemble(const char *src, int32_t *out, int cap) {
  struct Label labels[16];
  int nlabels = 0;
  /* Two passes: the first records label addresses, the second emits code. */
  for (int pass = 0; pass < 2; pass++) {
    int n = 0;
    const char *p = src;
    char word[32];
    while (*p) {
      while (*p == ' ' || *p == '\n') p++;
      if (!*p) break;
      int w = 0;
      while (*p && *p != ' ' && *p != '\n' && w < 31) word[w++] = *p++;
      word[w] = 0;
      size_t wl = strlen(word);
      if (word[0] == '@' && word[wl - 1] == ':') {
        if (pass == 0 && nlabels < 16) {
          word[wl - 1] = 0;
          snprintf(labels[nlabels].name, sizeof labels[nlabels].name, "%s", word + 1);
          labels[nlabels++].addr = n;
        }
        continue;
      }
      int32_t v = 0;
      if (word[0] == '@') {
        for (int i = 0; i < nlabels; i++)
          if (strcmp(labels[i].name, word + 1) == 0) v = labels[i].addr;
      } else if ((word[0] >= '0' && word[0] <= '9') || word[0] == '-') {
        int neg = word[0] == '-';
        for (const char *d = word + neg; *d; d++) v = v * 10 + (*d - '0');
        if (neg) v = -v;
      } else {
        v = lookupOp(word);
        if (v < 0) return -1;
      }
      if (n >= cap) return -1;
      out[n++] = v;
    }
    if (pass == 1) return n;
  }
  return -1;
}

static const char *const Programs[] = {
  /* Sum of squares 1..100. */
  "push 0 store 0 push 1 store 1 "
  "@loop: load 1 push 101 lt jz @end "
  "load 1 dup mul load 0 add store 0 load 1 inc store 1 jmp @loop "
  "@end: load 0 print halt",
  /* Iterative Fibonacci, printing each of the first 30 terms. */
  "push 0 store 0 push 1 store 1 push 30 store 2 "
  "@loop: load 2 jz @end load 0 print load 0 load 1 add load 1 store 0 store 1 "
  "load 2 dec store 2 jmp @loop @end: halt",
  /* GCD via a subroutine, over pairs (i*7, i*12) for i in 1..40. */
  "push 1 store 5 "
  "@loop: load 5 push 41 lt jz @end "
  "load 5 push 7 mul load 5 push 12 mul call @gcd print load 5 inc store 5 jmp @loop "
  "@end: halt "
  "@gcd: dup jz @gdone swap over mod jmp @gcd @gdone: pop ret",
  /* Division by zero must be reported, not crash. */
  "push 5 push 0 div print halt",
};

int main(void) {
  int32_t code[512];
  uint32_t total = 0;
  for (unsigned i = 0; i < sizeof Programs / sizeof Programs[0]; i++) {
    struct VM vm;
    memset(&vm, 0, sizeof vm);
    int n = assemble(Programs[i], code, 512);
    if (n < 0) {
      printf("program %u: assembly failed\n", i);
      continue;
    }
    enum Status st = run(&vm, code, n, 1000000);
    printf("program %u: %d words, %lu steps, %d printed, hash %08x, %s\n", i, n, vm.steps,
           vm.printed, (unsigned)vm.outhash, statusName(st));
    total = total * 131u + vm.outhash;
    int busiest = 0;
    for (int op = 1; op < OP_COUNT; op++)
      if (vm.opcount[op] > vm.opcount[busiest]) busiest = op;
    printf("  busiest op: %s (%lu)\n", OpNames[busiest], vm.opcount[busiest]);
  }
  printf("total %08x\n", (unsigned)total);
  return 0;
}
