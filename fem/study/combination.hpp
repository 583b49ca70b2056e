#pragma once
// One solver of a study: a method on a device, as written on the command line and in study
// files ("band-cholesky:cuda").
#include <string>
#include <vector>

namespace fem::study {

struct Combination {
  std::string method;
  std::string device;
  std::string name() const { return method + ":" + device; }
};

// "method:device" with names from the solver table, built here or not (a solver this build lacks
// is a study row marked unavailable); throws std::invalid_argument naming the bad entry and what
// is accepted.
Combination parse_combination(const std::string& text);

// A comma-separated list of them, in the order given (the first is the reference); duplicates
// are refused.
std::vector<Combination> parse_combinations(const std::string& list);

}  // namespace fem::study
