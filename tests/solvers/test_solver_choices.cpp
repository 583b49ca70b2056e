// The named choices of a solve: every name parses back to its value and unknown names to nothing.
#include <doctest/doctest.h>

#include <string>

#include "solvers/solver_choices.hpp"

using namespace fem;

namespace {

template <class Choice>
void check_round_trip(std::size_t expected_count) {
  const auto names = choice_names<Choice>();
  CHECK(names.size() == expected_count);
  for (const char* name : names) {
    const auto value = parse_choice<Choice>(name);
    REQUIRE(value.has_value());
    CHECK(std::string(name_of(*value)) == name);
  }
  CHECK_FALSE(parse_choice<Choice>("").has_value());
  CHECK_FALSE(parse_choice<Choice>(std::string(names.front()) + "x").has_value());
  CHECK_FALSE(parse_choice<Choice>("JACOBI").has_value());  // names are exact, as the case file's keys
}

}  // namespace

TEST_CASE("each solver choice's names parse back to the values they name") {
  check_round_trip<Preconditioner>(6);
  check_round_trip<Precision>(2);
  check_round_trip<AmgSmoother>(2);
  check_round_trip<SpmvTuning>(3);
  CHECK(parse_choice<Preconditioner>("block-jacobi") == Preconditioner::BlockJacobi);
  CHECK(parse_choice<AmgSmoother>("l1-jacobi") == AmgSmoother::L1Jacobi);
  CHECK(std::string(name_of(Precision::Mixed)) == "mixed");
  CHECK(choice_list<Preconditioner>() == "auto, none, jacobi, block-jacobi, ssor, amg");
  // auto is resolved before a solver sees it: AMG, which every system fem assembles admits.
  CHECK(effective_preconditioner(Preconditioner::Auto) == Preconditioner::Amg);
  CHECK(effective_preconditioner(Preconditioner::Ssor) == Preconditioner::Ssor);
}
