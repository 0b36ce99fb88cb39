// difftest C++ program inline-library: the shared library.
#include "inline.h"
#include <sstream>

template struct Counter<long>;

long lib_sum(const std::vector<long> &values) {
  long sum = 0;
  for (long v : values)
    sum = checked_add(sum, v);
  return sum;
}

std::string lib_join(const std::vector<std::string> &parts, char sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i)
      out += sep;
    out += parts[i];
  }
  return out;
}

long lib_at(const std::vector<long> &values, size_t i) { return values.at(i); }

int lib_count_words(const std::string &text) {
  Counter<std::string> words;
  std::istringstream in(text);
  std::string w;
  int distinct = 0;
  while (in >> w)
    if (words.add(w) == 1)
      ++distinct;
  return distinct * 100 + words.get("the");
}

Counter<long> &lib_counter() {
  static Counter<long> counter;
  return counter;
}

long (*lib_negate())(long) { return &negate; }
