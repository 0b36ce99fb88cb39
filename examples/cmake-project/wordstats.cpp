#include "wordstats.h"

#include <algorithm>
#include <cctype>
#include <istream>

namespace {
// Splits a line into lower-cased words made of letters and inner apostrophes.
std::vector<std::string> splitWords(const std::string &line) {
  std::vector<std::string> words;
  std::string cur;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    char c = i < line.size() ? line[i] : ' ';
    bool inner = c == '\'' && !cur.empty() && i + 1 < line.size() &&
                 std::isalpha(static_cast<unsigned char>(line[i + 1]));
    if (std::isalpha(static_cast<unsigned char>(c)) || inner) {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!cur.empty()) {
      words.push_back(cur);
      cur.clear();
    }
  }
  return words;
}
} // namespace

TextStats analyze(std::istream &in) {
  TextStats s;
  std::string line;
  while (std::getline(in, line)) {
    ++s.lines;
    for (const std::string &w : splitWords(line)) {
      ++s.words;
      s.letters += w.size();
      ++s.lengths[w.size()];
      if (s.counts[w]++ == 0) {  // first sighting: file it under its letters
        std::string key = w;
        std::sort(key.begin(), key.end());
        s.anagrams[key].push_back(w);
      }
    }
  }
  return s;
}

std::vector<std::pair<std::string, int>> topWords(const TextStats &s, std::size_t n) {
  std::vector<std::pair<std::string, int>> v(s.counts.begin(), s.counts.end());
  // Most frequent first; ties alphabetical so the output is deterministic.
  std::stable_sort(v.begin(), v.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  if (v.size() > n)
    v.resize(n);
  return v;
}
