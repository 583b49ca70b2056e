#include "solvers/solver_choices.hpp"

#include <span>
#include <stdexcept>
#include <utility>

namespace fem {
namespace {

template <class Choice>
using Names = std::span<const std::pair<Choice, const char*>>;

template <class Choice>
Names<Choice> names_of();

template <>
Names<Preconditioner> names_of() {
  static constexpr std::pair<Preconditioner, const char*> names[] = {{Preconditioner::None, "none"},
                                                                     {Preconditioner::Jacobi, "jacobi"},
                                                                     {Preconditioner::BlockJacobi, "block-jacobi"},
                                                                     {Preconditioner::Ssor, "ssor"},
                                                                     {Preconditioner::Amg, "amg"}};
  return names;
}

template <>
Names<Precision> names_of() {
  static constexpr std::pair<Precision, const char*> names[] = {{Precision::Double, "double"}, {Precision::Mixed, "mixed"}};
  return names;
}

template <>
Names<AmgSmoother> names_of() {
  static constexpr std::pair<AmgSmoother, const char*> names[] = {{AmgSmoother::Chebyshev, "chebyshev"},
                                                                  {AmgSmoother::L1Jacobi, "l1-jacobi"}};
  return names;
}

template <>
Names<SpmvTuning> names_of() {
  static constexpr std::pair<SpmvTuning, const char*> names[] = {
      {SpmvTuning::Cache, "cache"}, {SpmvTuning::Fresh, "fresh"}, {SpmvTuning::Model, "model"}};
  return names;
}

}  // namespace

template <class Choice>
const char* name_of(Choice value) {
  for (const auto& [choice, name] : names_of<Choice>())
    if (choice == value) return name;
  throw std::logic_error("a choice without a name");
}

template <class Choice>
std::vector<const char*> choice_names() {
  std::vector<const char*> names;
  for (const auto& entry : names_of<Choice>()) names.push_back(entry.second);
  return names;
}

template <class Choice>
std::optional<Choice> parse_choice(std::string_view name) {
  for (const auto& [choice, choice_name] : names_of<Choice>())
    if (name == choice_name) return choice;
  return std::nullopt;
}

template <class Choice>
std::string choice_list() {
  std::string list;
  for (const auto& entry : names_of<Choice>()) list += (list.empty() ? "" : ", ") + std::string(entry.second);
  return list;
}

#define FEM_SOLVER_CHOICE(Choice)                                          \
  template const char* name_of<Choice>(Choice);                            \
  template std::vector<const char*> choice_names<Choice>();                \
  template std::optional<Choice> parse_choice<Choice>(std::string_view);   \
  template std::string choice_list<Choice>();
FEM_SOLVER_CHOICE(Preconditioner)
FEM_SOLVER_CHOICE(Precision)
FEM_SOLVER_CHOICE(AmgSmoother)
FEM_SOLVER_CHOICE(SpmvTuning)
#undef FEM_SOLVER_CHOICE

}  // namespace fem
