// The solver table: its rows are consistent, the name lists come from it, make_solver refuses an
// unknown name, a device the method lacks and a row this build leaves out, each with its own
// message, and every row this build has on the CPU solves a small SPD system.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "fem/config.hpp"
#include "solvers/solver_table.hpp"

using namespace fem;

namespace {

std::string refusal(SolverMethodId method, Device device) {
  SolverOptions options;
  options.method = method;
  options.device = device;
  try {
    make_solver(options);
  } catch (const SolverUnavailable& e) {
    return e.what();
  }
  FAIL("make_solver should have refused " << method << ":" << device);
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A symmetric, strictly diagonally dominant band matrix (so SPD) with two off-diagonals of
// uneven values, and a solution with no pattern to hide an indexing error.
CsrMatrix spd_band(int n) {
  CsrMatrix a;
  a.rows = n;
  const auto coupling = [](int i, int j) { return -0.3 - 0.01 * ((i + j) % 7); };
  for (int i = 0; i < n; ++i) {
    for (int j = std::max(0, i - 2); j <= std::min(n - 1, i + 2); ++j) {
      a.col.push_back(j);
      a.val.push_back(i == j ? 2.0 + 0.1 * (i % 5) : coupling(std::min(i, j), std::max(i, j)) / std::abs(i - j));
    }
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  return a;
}

}  // namespace

TEST_CASE("every row of the solver table is consistent") {
  std::set<std::string> methods;
  const auto devices = solver_devices();
  for (const auto& method : solver_table()) {
    CAPTURE(method.name());
    CHECK(methods.insert(method.name()).second);
    CHECK(std::string(method.help).size() > 10);
    REQUIRE_FALSE(method.devices.empty());
    std::set<std::string> on;
    for (const auto& device : method.devices) {
      CAPTURE(device.name());
      CHECK(on.insert(device.name()).second);
      CHECK(std::count_if(devices.begin(), devices.end(), [&](const char* d) { return std::string(d) == device.name(); }) == 1);
      // A device whose parts are all built has its factory; one that lacks a part says how to get it.
      CHECK(device.built() == device.missing().empty());
      if (!device.built()) CHECK(contains(device.missing(), "configure with -DFEM_WITH_"));
    }
  }
}

TEST_CASE("a device is built when its factory and every part it needs are; else it names what is missing") {
  const BuildOption on{true, "configure with A"}, off{false, "configure with B"}, off_too{false, "configure with C"};
  CHECK(SolverDevice{Device::Cpu, make_solver}.built());
  CHECK(SolverDevice{Device::Cpu, make_solver, {on}}.missing().empty());
  CHECK_FALSE(SolverDevice{Device::Cpu, nullptr}.built());
  const SolverDevice lacking{Device::Cuda, make_solver, {off, on, off_too}};
  CHECK_FALSE(lacking.built());
  CHECK(lacking.missing() == "configure with B, and configure with C");
}

TEST_CASE("the names a case may use are the table's, in its order") {
  const auto methods = solver_methods();
  REQUIRE(methods.size() == solver_table().size());
  for (std::size_t i = 0; i < methods.size(); ++i) CHECK(std::string(methods[i]) == solver_table()[i].name());
  const auto devices = solver_devices();
  CHECK(std::vector<std::string>(devices.begin(), devices.end()) == std::vector<std::string>{"cpu", "cuda", "opencl"});
  CHECK(find_solver_method(SolverMethodId::BandLdlt)->ordering == OrderingGoal::Bandwidth);
  CHECK(find_solver_method(SolverMethodId::Frontal)->ordering == OrderingGoal::Front);
  CHECK(find_solver_method(SolverMethodId::Cg)->kind == SolverKind::Iterative);
  CHECK(find_solver_method(SolverMethodId::Auto) == nullptr);
}

TEST_CASE("the typed names are the table's: every row once, in its order, then auto; devices as the table names them") {
  const auto names = choice_names<SolverMethodId>();
  REQUIRE(names.size() == solver_table().size() + 1);
  for (std::size_t i = 0; i < solver_table().size(); ++i) {
    CHECK(std::string(names[i]) == solver_table()[i].name());
    CHECK(parse_choice<SolverMethodId>(names[i]) == solver_table()[i].id);
  }
  CHECK(std::string(names.back()) == "auto");
  const auto devices = solver_devices();
  const auto device_names = choice_names<Device>();
  CHECK(std::vector<std::string>(devices.begin(), devices.end()) ==
        std::vector<std::string>(device_names.begin(), device_names.end()));
  CHECK(SpmvChoice::parse("auto").is_auto());
  CHECK(SpmvChoice::parse("csr/wg64/r8").name() == "csr/wg64/r8");
  CHECK_FALSE(SpmvChoice::parse("auto/model").is_auto());  // a device's own setting, passed on as written
}

TEST_CASE("an unknown method or device is refused with the names the table has") {
  CHECK(contains(unknown_solver_name("lu", "cpu"), "unknown method 'lu' (expected one of: band-cholesky, band-gauss, band-ldlt, frontal"));
  CHECK(contains(unknown_solver_name("cg", "gpu"), "unknown device 'gpu' (expected one of: cpu, cuda, opencl)"));
  CHECK(unknown_solver_name("cg", "opencl").empty());
  // auto is resolved before a solver is made: make_solver knows no row of that name.
  CHECK(contains(refusal(SolverMethodId::Auto, Device::Cpu), "unknown method 'auto' (expected one of: band-cholesky,"));
}

TEST_CASE("the libraries of the optional families are those this build has, each with its version") {
  const auto libraries = solver_libraries();
  CHECK(libraries.count("blas") == 1);
  CHECK(libraries.count("metis") == (FEM_WITH_METIS ? 1 : 0));
  CHECK(libraries.count("petsc") == (FEM_WITH_PETSC ? 1 : 0));
  CHECK(libraries.count("mumps") == (FEM_WITH_PETSC ? 1 : 0));
  CHECK(libraries.count("slepc") == (FEM_WITH_SLEPC ? 1 : 0));
  for (const auto& [name, version] : libraries) {
    CAPTURE(name);
    CHECK_FALSE(version.empty());
  }
}

TEST_CASE("a device the method does not run on is named with those it does") {
  CHECK(refusal(SolverMethodId::BandLdlt, Device::OpenCl) == "band-ldlt is not available on opencl (band-ldlt runs on: cpu)");
}

TEST_CASE("a row this build leaves out says how to configure it") {
  std::vector<std::string> unbuilt;
  for (const auto& method : solver_table())
    for (const auto& device : method.devices)
      if (!device.built()) {
        const std::string name = std::string(method.name()) + ":" + device.name();
        unbuilt.push_back(name);
        CHECK(refusal(method.id, device.device) ==
              std::string(method.name()) + " on " + device.name() + " is not available in this build (" + device.missing() + ")");
      }
  const auto listed = [&](const std::string& name) { return std::count(unbuilt.begin(), unbuilt.end(), name) == 1; };
  CHECK(listed("cg:cuda") == !FEM_WITH_CUDA);
  CHECK(listed("frontal:opencl") == !FEM_WITH_OPENCL);
  CHECK(listed("multifrontal:cpu") == !FEM_WITH_METIS);
  CHECK(listed("mumps:cpu") == !FEM_WITH_PETSC);
  const auto built = available_solvers();
  std::size_t rows = 0;
  for (const auto& method : solver_table()) rows += method.devices.size();
  CHECK(built.size() + unbuilt.size() == rows);
  for (const auto& name : unbuilt) CHECK(std::count(built.begin(), built.end(), name) == 0);
}

TEST_CASE("every method this build has on the CPU solves a small SPD system") {
  const int n = 60;
  const CsrMatrix a = spd_band(n);
  std::vector<double> expected(n), rhs(n, 0.0);
  for (int i = 0; i < n; ++i) expected[i] = std::sin(0.37 * i + 1) + 0.01 * i;
  for (int i = 0; i < n; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) rhs[i] += a.val[k] * expected[a.col[k]];
  for (const auto& method : solver_table()) {
    const auto cpu = std::find_if(method.devices.begin(), method.devices.end(), [](const SolverDevice& d) { return std::string(d.name()) == "cpu"; });
    if (cpu == method.devices.end() || !cpu->built()) continue;
    CAPTURE(method.name());
    SolverOptions options;
    options.method = method.id;
    options.tolerance = 1e-12;
    const auto solver = make_solver(options);
    if (solver->uses_element_matrices()) continue;  // the frontal method: tests/solvers/frontal
    std::vector<double> u(n, 0.0);
    solver->solve(AssembledSystem{a, rhs}, u);
    double error = 0;
    for (int i = 0; i < n; ++i) error = std::max(error, std::abs(u[i] - expected[i]));
    CHECK(error < 1e-8);
  }
}
