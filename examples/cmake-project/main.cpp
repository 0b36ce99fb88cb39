// Usage: wordstats [FILE] [TOP]   (reads stdin without FILE)
#include "wordstats.h"

#include <cstdlib>
#include <fstream>
#include <iostream>

int main(int argc, char **argv) {
  std::size_t top = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 10;
  TextStats stats;
  if (argc > 1) {
    std::ifstream in(argv[1]);
    if (!in) {
      std::cerr << "wordstats: cannot open " << argv[1] << "\n";
      return 2;
    }
    stats = analyze(in);
  } else {
    stats = analyze(std::cin);
  }
  printReport(std::cout, stats, top);
  return 0;
}
