#pragma once
// Where the frontal method puts the rows it has eliminated until the back substitution reads
// them again, last first: in memory, or in a file on disk for problems whose factor does not
// fit (solver.out_of_core).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fem::frontal {

// One elimination step: p pivots out of a front of p + r equations and the load row.
struct FactorBlock {
  std::vector<std::int32_t> pivots;  // eliminated equations, in pivot order
  std::vector<std::int32_t> rest;    // the front's other equations, in front order
  // (p + r + 1) x p, row-major: L11 (lower triangle), L21, then the forward-solved load y.
  std::vector<double> panel;
};

class FactorStore {
 public:
  virtual ~FactorStore() = default;
  virtual void append(const FactorBlock& block) = 0;
  // Fills `out` with block `index` (0 = the first appended).
  virtual void read(std::size_t index, FactorBlock& out) = 0;
  virtual std::size_t blocks() const = 0;
  virtual std::size_t bytes() const = 0;  // what the blocks occupy (memory or file)
};

std::unique_ptr<FactorStore> make_memory_factor_store();

// A fresh file in `directory` (empty: the system's temporary folder), unlinked as soon as it is
// open, so that it goes with the store or the process, whichever way the process ends. Throws std::runtime_error naming the path when it cannot be created or written.
std::unique_ptr<FactorStore> make_file_factor_store(const std::string& directory);

}  // namespace fem::frontal
