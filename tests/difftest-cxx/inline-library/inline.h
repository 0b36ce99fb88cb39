// difftest C++ program inline-library (docs/difftest.md): the library's interface, with inline
// functions and templates both modules instantiate. Linked per TU, smartcc hides the library's
// copies of those nobody else needs (driver/PerTULink.h); the program keeps its own.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct Overflow {
  long value;
};

// Both modules call it; it throws from the library's copy into the program's handlers.
[[gnu::noinline]] inline long checked_add(long a, long b) {
  if (a > 1000000 - b)
    throw Overflow{a + b};
  return a + b;
}

// The library returns its address; the program compares it with its own.
[[gnu::noinline]] inline long negate(long v) { return -v; }

template <class T> struct Counter {
  std::map<T, int> seen;
  [[gnu::noinline]] int add(const T &key) { return ++seen[key]; }
  [[gnu::noinline]] int get(const T &key) const {
    auto it = seen.find(key);
    return it == seen.end() ? 0 : it->second;
  }
};

// Explicitly instantiated in the library; the program uses the library's definition.
extern template struct Counter<long>;

long lib_sum(const std::vector<long> &values);        // checked_add over values
std::string lib_join(const std::vector<std::string> &parts, char sep);
long lib_at(const std::vector<long> &values, size_t i); // values.at(i): may throw out_of_range
int lib_count_words(const std::string &text);           // distinct words, by Counter<std::string>
Counter<long> &lib_counter();
long (*lib_negate())(long);
