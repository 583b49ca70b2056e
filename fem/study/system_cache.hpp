#pragma once
// The orderings and systems of one mesh in a comparison, each built on first use and then shared
// by every row that needs it: a node ordering per renumbering (per solver goal for `auto`), its
// assembled or element-by-element system, and for modal rows its mass matrix.
#include <map>
#include <memory>
#include <string>

#include "fem/case/analysis_spec.hpp"
#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/node_ordering.hpp"

namespace fem::study {

class SystemCache {
 public:
  SystemCache(const Problem& problem, const renumber::NodeGraph& graph) : problem_(problem), graph_(graph) {}

  // `method` names the solver whose renumbering goal `auto` follows.
  const NodeOrdering& ordering(const std::string& renumber, SolverMethodId method);
  DiscreteSystem& system(const std::string& renumber, SolverMethodId method);

  // Seconds it took to build this kind of system for this ordering (the first time).
  double prepare(const std::string& renumber, SolverMethodId method, bool by_elements);

  // M of the assembled system (after prepare(renumber, method, false)), its fixed equations'
  // rows and columns cleared as a modal run clears them.
  const CsrMatrix& mass(const std::string& renumber, SolverMethodId method, MassLumping lumping);

 private:
  static std::string ordering_key(const std::string& renumber, SolverMethodId method);

  const Problem& problem_;
  const renumber::NodeGraph& graph_;
  std::map<std::string, std::unique_ptr<NodeOrdering>> orderings_;
  std::map<std::string, std::unique_ptr<DiscreteSystem>> systems_;
  std::map<std::string, double> prepare_seconds_;
  std::map<std::string, CsrMatrix> masses_;
};

}  // namespace fem::study
