#include "fem/study/system_cache.hpp"

#include "fem/analysis/modal_analysis.hpp"
#include "fem/assembly/assembler.hpp"

namespace fem::study {

std::string SystemCache::ordering_key(const std::string& renumber, SolverMethodId method) {
  // `auto` depends on what the solver pays for, so it is one ordering per goal.
  return renumber == "auto" ? "auto/" + std::to_string(static_cast<int>(renumber_goal(method))) : renumber;
}

const NodeOrdering& SystemCache::ordering(const std::string& renumber, SolverMethodId method) {
  auto& slot = orderings_[ordering_key(renumber, method)];
  if (!slot) slot = std::make_unique<NodeOrdering>(order_nodes(graph_, renumber, method, problem_.physics.dofs_per_node()));
  return *slot;
}

DiscreteSystem& SystemCache::system(const std::string& renumber, SolverMethodId method) {
  auto& slot = systems_[ordering_key(renumber, method)];
  if (!slot) slot = std::make_unique<DiscreteSystem>(problem_, graph_, ordering(renumber, method));
  return *slot;
}

double SystemCache::prepare(const std::string& renumber, SolverMethodId method, bool by_elements) {
  const std::string key = ordering_key(renumber, method) + (by_elements ? "/elements" : "/assembled");
  const double spent = system(renumber, method).prepare(by_elements);
  return prepare_seconds_.emplace(key, spent).first->second;  // 0 when it was built before: keep the first
}

const CsrMatrix& SystemCache::mass(const std::string& renumber, SolverMethodId method, MassLumping lumping) {
  const std::string key = ordering_key(renumber, method) + (lumping == MassLumping::Lumped ? "/lumped" : "/consistent");
  if (const auto found = masses_.find(key); found != masses_.end()) return found->second;
  const DiscreteSystem& s = system(renumber, method);
  CsrMatrix m = assemble_mass(problem_, s.dofs(), graph_, lumping);
  remove_fixed_mass(m, s.constraints());
  return masses_.emplace(key, std::move(m)).first->second;
}

}  // namespace fem::study
