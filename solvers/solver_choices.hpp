#pragma once
// The named choices of a solve, typed once where a case file or the command line gives them
// (fem/case, fem/pipeline/run_overrides) and carried as enums from there on: each with the names
// a user writes, for parsing, messages and summaries.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fem {

enum class Preconditioner { None, Jacobi, BlockJacobi, Ssor, Amg };
enum class Precision { Double, Mixed };  // direct solvers: Mixed factors in FP32 and refines in FP64
enum class AmgSmoother { Chebyshev, L1Jacobi };
enum class SpmvTuning { Cache, Fresh, Model };  // spmv: auto (kernels/cpu/spmv_autotune.hpp)

// The name a user writes for `value` ("block-jacobi").
template <class Choice>
const char* name_of(Choice value);

// Every name of the enum, in its order.
template <class Choice>
std::vector<const char*> choice_names();

// The value named `name`; nothing for a name the enum does not have.
template <class Choice>
std::optional<Choice> parse_choice(std::string_view name);

// "none, jacobi, block-jacobi, ssor, amg"
template <class Choice>
std::string choice_list();

}  // namespace fem
