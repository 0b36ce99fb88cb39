// wordstats: word frequency, length histogram and anagram groups of a text.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

struct TextStats {
  std::size_t lines = 0, words = 0, letters = 0;
  std::map<std::string, int> counts;           // lower-cased word -> occurrences
  std::map<std::size_t, int> lengths;          // word length -> number of words
  std::map<std::string, std::vector<std::string>> anagrams;  // sorted letters -> words
};

TextStats analyze(std::istream &in);
std::vector<std::pair<std::string, int>> topWords(const TextStats &s, std::size_t n);
void printReport(std::ostream &out, const TextStats &s, std::size_t top);
