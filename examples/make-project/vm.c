/* Stack VM: the classic dense opcode switch that compilers turn into a jump table.
 * Arithmetic is done on uint64_t so overflow wraps instead of being undefined. */
#include "calc.h"

#define STACK_MAX 64

static value_t ipow(value_t base, value_t exp) {
  uint64_t result = 1, b = (uint64_t)base;
  for (uint64_t e = (uint64_t)exp; e; e >>= 1) {
    if (e & 1)
      result *= b;
    b *= b;
  }
  return (value_t)result;
}

static value_t isqrt(value_t v) {
  uint64_t x = (uint64_t)v, r = x;
  if (x < 2)
    return v;
  uint64_t y = (r + 1) / 2;
  while (y < r) {  /* Newton iteration, monotonically decreasing */
    r = y;
    y = (r + x / r) / 2;
  }
  return (value_t)r;
}

static uint64_t uabs(value_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

static value_t gcd(value_t a, value_t b) {
  uint64_t x = uabs(a), y = uabs(b);
  while (y) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return (value_t)x;
}

static value_t shr(value_t a, value_t s) {
  /* Arithmetic shift spelled out: >> of a negative value is implementation-defined. */
  return a < 0 ? ~(value_t)((uint64_t)~a >> s) : (value_t)((uint64_t)a >> s);
}

const char *vm_run(const struct program *prog, value_t vars[NVARS], value_t *result) {
  value_t stack[STACK_MAX];
  size_t sp = 0, pc = 0;
  for (;;) {
    if (pc >= prog->len)
      return "pc out of range";
    enum op o = (enum op)prog->code[pc];
    value_t imm = prog->imm[pc++];
    if (sp + 1 >= STACK_MAX)
      return "stack overflow";
    value_t a = sp >= 2 ? stack[sp - 2] : 0, b = sp >= 1 ? stack[sp - 1] : 0;
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    value_t r;
    switch (o) {
    case OP_PUSH:  stack[sp++] = imm; continue;
    case OP_LOAD:  stack[sp++] = vars[imm]; continue;
    case OP_STORE: vars[imm] = b; continue;
    case OP_POP:   sp--; continue;
    case OP_JZ:    sp--; if (b == 0) pc = (size_t)imm; continue;
    case OP_JMP:   pc = (size_t)imm; continue;
    case OP_HALT:  *result = b; return sp == 1 ? NULL : "unbalanced stack";
    /* unary: replace the top of stack */
    case OP_NEG:   stack[sp - 1] = (value_t)(0 - ub); continue;
    case OP_NOT:   stack[sp - 1] = ~b; continue;
    case OP_LNOT:  stack[sp - 1] = !b; continue;
    case OP_ABS:   stack[sp - 1] = (value_t)uabs(b); continue;
    case OP_SQRT:
      if (b < 0)
        return "sqrt of a negative number";
      stack[sp - 1] = isqrt(b);
      continue;
    /* binary: pop two, push one */
    case OP_ADD: r = (value_t)(ua + ub); break;
    case OP_SUB: r = (value_t)(ua - ub); break;
    case OP_MUL: r = (value_t)(ua * ub); break;
    case OP_DIV:
    case OP_MOD:
      if (b == 0)
        return "division by zero";
      if (b == -1)  /* INT64_MIN / -1 traps on x86 */
        r = o == OP_DIV ? (value_t)(0 - ua) : 0;
      else
        r = o == OP_DIV ? a / b : a % b;
      break;
    case OP_POW:
      if (b < 0)
        return "negative exponent";
      r = ipow(a, b);
      break;
    case OP_AND: r = a & b; break;
    case OP_OR:  r = a | b; break;
    case OP_XOR: r = a ^ b; break;
    case OP_SHL: r = (value_t)(ua << (ub & 63)); break;
    case OP_SHR: r = shr(a, (value_t)(ub & 63)); break;
    case OP_LT:  r = a < b; break;
    case OP_GT:  r = a > b; break;
    case OP_LE:  r = a <= b; break;
    case OP_GE:  r = a >= b; break;
    case OP_EQ:  r = a == b; break;
    case OP_NE:  r = a != b; break;
    case OP_MIN: r = a < b ? a : b; break;
    case OP_MAX: r = a > b ? a : b; break;
    case OP_GCD: r = gcd(a, b); break;
    default:     return "bad opcode";
    }
    stack[--sp - 1] = r;
  }
}

const char *op_name(enum op o) {
  static const char *const names[OP_COUNT] = {
    "push", "load", "store", "pop", "add", "sub", "mul", "div", "mod", "pow",
    "and", "or", "xor", "shl", "shr", "neg", "not", "lnot", "lt", "gt", "le", "ge",
    "eq", "ne", "min", "max", "abs", "gcd", "sqrt", "jz", "jmp", "halt"};
  return (unsigned)o < OP_COUNT ? names[o] : "?";
}
