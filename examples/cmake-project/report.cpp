#include "wordstats.h"

#include <iomanip>
#include <ostream>

void printReport(std::ostream &out, const TextStats &s, std::size_t top) {
  out << "lines " << s.lines << ", words " << s.words << ", distinct " << s.counts.size()
      << ", letters " << s.letters << "\n";
  if (s.words)
    out << "average word length " << std::fixed << std::setprecision(2)
        << static_cast<double>(s.letters) / static_cast<double>(s.words) << "\n";

  out << "\ntop " << top << " words:\n";
  for (const auto &[word, n] : topWords(s, top))
    out << "  " << std::left << std::setw(12) << word << std::right << std::setw(4) << n
        << "\n";

  out << "\nword lengths:\n";
  for (const auto &[len, n] : s.lengths)
    out << "  " << std::setw(2) << len << " " << std::setw(4) << n << " "
        << std::string(static_cast<std::size_t>((n + 1) / 2), '#') << "\n";

  out << "\nanagram groups:\n";
  for (const auto &[key, group] : s.anagrams) {
    if (group.size() < 2)
      continue;
    out << "  " << key << ":";
    for (const std::string &w : group)
      out << " " << w;
    out << "\n";
  }
}
