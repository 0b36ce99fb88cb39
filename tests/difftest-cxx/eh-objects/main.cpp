// difftest C++ program eh-objects (docs/difftest.md), one file: what the exception tables and
// the runtime do with the thrown objects and the objects being built. Catches by base class,
// by pointer, through multiple inheritance and an ambiguous base; std::exception_ptr and
// nested exceptions; partly constructed arrays, members and new-expressions; function-try-
// blocks; std::uncaught_exceptions in destructors run by unwinding; try blocks in loops and
// switches; std::vector's strong guarantee with a throwing copy. Prints a trace; exits 0
// only when every expected catch happened and every object was destroyed.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <stdexcept>
#include <vector>

static int failures;

static void expect(const char *what, long got, long want) {
  std::printf("%-44s %ld%s\n", what, got, got == want ? "" : "  <- FAIL");
  if (got != want) {
    std::printf("  expected %ld\n", want);
    ++failures;
  }
}

struct A {
  int a = 1;
  virtual ~A() {}
};
struct B {
  int b = 2;
  virtual ~B() {}
};
struct AB : A, B {
  int ab = 3;
};
struct X : A {};
struct Y : A {};
struct XY : X, Y {};     // A is an ambiguous base: catch (A &) must not match

static long live, made, unwound_dtors;
struct Obj {
  int id;
  explicit Obj(int i) : id(i) {
    if (i == 13)
      throw std::runtime_error("unlucky");
    ++live;
    ++made;
  }
  Obj(const Obj &o) : id(o.id) {
    if (o.id == 99)
      throw std::length_error("copy");
    ++live;
    ++made;
  }
  ~Obj() {
    --live;
    if (std::uncaught_exceptions() > 0)
      ++unwound_dtors;
  }
};

struct Counted {
  static int allocated, freed;
  Obj o;
  explicit Counted(int i) : o(i) {}
  static void *operator new(std::size_t n) {
    ++allocated;
    return std::malloc(n);
  }
  static void operator delete(void *p) {
    ++freed;
    std::free(p);
  }
};
int Counted::allocated, Counted::freed;

struct Pair {
  Obj first, second;
  Pair(int a, int b) try : first(a), second(b) {
  } catch (const std::runtime_error &) {
    ++handlers;       // a constructor's function-try-block rethrows at its end
  }
  static int handlers;
};
int Pair::handlers;

static int dispatch(int kind) {
  switch (kind % 5) {
  case 0:
    throw kind;
  case 1:
    throw AB();
  case 2:
    throw static_cast<const char *>("text");
  case 3:
    throw XY();
  default:
    return kind;
  }
}

static long classify(int kind) {
  try {
    return dispatch(kind);
  } catch (int e) {
    return 100 + e;
  } catch (B &b) {
    return 200 + b.b;
  } catch (A &a) {
    return 300 + a.a;
  } catch (const char *s) {
    return 400 + s[0];
  } catch (...) {
    return 500;
  }
}

static std::exception_ptr saved;

static void remember(int i) {
  try {
    if (i & 1)
      throw std::out_of_range("odd");
    throw i;
  } catch (...) {
    saved = std::current_exception();
  }
}

static void nest(int depth) {
  try {
    if (depth == 0)
      throw std::runtime_error("bottom");
    nest(depth - 1);
  } catch (...) {
    std::throw_with_nested(std::logic_error("level"));
  }
}

static int unwrap(const std::exception &e) {
  try {
    std::rethrow_if_nested(e);
  } catch (const std::exception &inner) {
    return 1 + unwrap(inner);
  }
  return 0;
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);   // the trace survives a std::terminate
  long sum = 0;
  for (int k = 0; k < 10; ++k)
    sum += classify(k);
  expect("classify 0..9", sum, 100 + 202 + 400 + 't' + 500 + 4 + 105 + 202 + 400 + 't' + 500 + 9);

  try {
    throw new AB();
  } catch (B *b) {
    expect("catch by pointer to second base", b->b, 2);
    delete static_cast<AB *>(b);
  }

  // Arrays and members partly built when a constructor throws.
  try {
    Obj objs[13] = {Obj(1), Obj(2), Obj(3), Obj(4), Obj(5), Obj(6), Obj(7), Obj(8),
                    Obj(9), Obj(10), Obj(11), Obj(12), Obj(13)};
    expect("unreachable", 0, 1);
  } catch (const std::runtime_error &) {
    expect("array: live after the 13th throws", live, 0);
  }
  try {
    Counted *c = new Counted(13);
    delete c;
  } catch (const std::runtime_error &) {
    expect("new-expression: freed what it allocated", Counted::freed, Counted::allocated);
  }
  try {
    Pair p(3, 13);
  } catch (const std::runtime_error &) {
    expect("function-try-block rethrew", Pair::handlers, 1);
  }
  expect("live after the member throws", live, 0);

  // uncaught_exceptions() in destructors run while unwinding.
  unwound_dtors = 0;
  try {
    Obj a(1), b(2), c(3);
    throw 5;
  } catch (int) {
  }
  expect("destructors run by unwinding", unwound_dtors, 3);

  // exception_ptr: kept and rethrown later, several times.
  long kinds = 0;
  for (int i = 0; i < 6; ++i) {
    remember(i);
    for (int j = 0; j < 2; ++j) {
      try {
        std::rethrow_exception(saved);
      } catch (const std::out_of_range &) {
        kinds += 10;
      } catch (int e) {
        kinds += e;
      }
    }
  }
  expect("exception_ptr rethrows", kinds, 60 + 2 * (0 + 2 + 4));
  saved = nullptr;
  try {
    std::rethrow_exception(std::make_exception_ptr(Obj(7)));
  } catch (const Obj &o) {
    expect("make_exception_ptr", o.id, 7);
  }

  try {
    nest(4);
  } catch (const std::exception &e) {
    expect("nested exceptions", unwrap(e), 5);
  }

  // A try block in a loop: a thousand throws and catches.
  long caught = 0;
  for (int i = 0; i < 1000; ++i) {
    try {
      switch (i % 4) {
      case 0:
        throw i;
      case 1:
        throw Obj(i);
      case 2:
        caught += 0;
        break;
      default:
        throw std::runtime_error("x");
      }
    } catch (int) {
      caught += 1;
    } catch (const Obj &o) {
      caught += o.id == i ? 2 : 1000000;
    } catch (const std::exception &) {
      caught += 3;
    }
  }
  expect("loop catches", caught, 250 * (1 + 2 + 3) + 1);   // Obj(13) throws runtime_error

  // std::vector keeps its elements when a copy throws while it grows.
  {
    std::vector<Obj> v;
    v.reserve(4);
    for (int i = 0; i < 4; ++i)
      v.emplace_back(i == 2 ? 99 : i);
    try {
      v.push_back(Obj(50));       // grows: copies (Obj has no noexcept move), 99 throws
      expect("unreachable", 0, 1);
    } catch (const std::length_error &) {
      expect("vector kept its size", v.size(), 4);
      expect("vector kept its elements", v[2].id + v[3].id, 99 + 3);
    }
  }
  expect("nothing alive", live, 0);
  std::printf("objects made %ld\n", made);
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures != 0;
}
