// difftest C++ program inline-library (docs/difftest.md): main uses a shared library whose
// inline functions and template instantiations it also has, catches what the library's copies
// throw, compares an inline function's address across the two and uses an explicit
// instantiation of the library's. Prints a trace; exits 0 only when every result is expected.
#include "inline.h"
#include <cstdio>

static int failures;

static void expect(const char *what, long got, long want) {
  std::printf("%-34s %ld%s\n", what, got, got == want ? "" : "  <- FAIL");
  if (got != want)
    ++failures;
}

template <class F> static long outcome(F f) {
  try {
    return f();
  } catch (const Overflow &o) {
    return 1000000000L + o.value;
  } catch (const std::out_of_range &) {
    return -4;
  }
}

int main() {
  std::vector<long> small{1, 2, 3, 4}, large{600000, 500000};
  expect("lib_sum(small)", outcome([&] { return lib_sum(small); }), 10);
  expect("lib_sum(large) throws", outcome([&] { return lib_sum(large); }), 1001100000L);
  expect("checked_add here", outcome([] { return checked_add(7, 8); }), 15);
  expect("lib_at(2)", outcome([&] { return lib_at(small, 2); }), 3);
  expect("lib_at(9) throws", outcome([&] { return lib_at(small, 9); }), -4);
  expect("join length",
         static_cast<long>(lib_join({"alpha", "beta", "gamma"}, ',').size()), 16);
  expect("words", lib_count_words("the cat and the hat and the bat"), 503);
  Counter<long> &c = lib_counter();
  c.add(5);
  c.add(5);
  expect("counter (library's instantiation)", c.get(5), 2);
  expect("negate: one address", lib_negate() == &negate, 1);
  expect("negate(9)", lib_negate()(9), -9);
  std::printf("%s\n", failures ? "FAILED" : "all expected");
  return failures ? 1 : 0;
}
