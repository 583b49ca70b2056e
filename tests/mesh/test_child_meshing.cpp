// Meshing in a child process: the mesh comes back whole, the child's error comes back as its
// message, and a child past its time or memory budget, or one that crashes, is stopped and named.
#include <doctest/doctest.h>

#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "fem/mesh/box_mesh.hpp"
#include "fem/mesh/child_meshing.hpp"
#include "support/stopwatch.hpp"

using namespace fem;

namespace {

MeshingBudget generous() {
  MeshingBudget b;
  b.seconds = 60;
  b.bytes = std::size_t(8) << 30;
  return b;
}

// The message `mesh_in_child` throws, or "" when it returns.
std::string failure_of(const MeshingBudget& budget, const std::function<Mesh(const MeshingProgress&)>& make) {
  try {
    mesh_in_child("part.geo", budget, nullptr, make);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

Mesh box_with_groups() {
  BoxSpec box;
  box.size = {2, 1, 1};
  box.divisions = {5, 3, 2};
  box.shape = ElementShape::Tetrahedron;
  box.order = 2;
  Mesh mesh = make_box_mesh(box);
  mesh.cells.tag.assign(mesh.cells.size(), 7);  // the tags travel too
  return mesh;
}

GeoMeshEstimate estimate_of(std::int64_t cells, double element_size) {
  GeoMeshEstimate e;
  e.dimension = 3;
  e.cells = cells;
  e.element_size = element_size;
  return e;
}

}  // namespace

TEST_CASE("the child's mesh comes back as it was made") {
  const Mesh made = box_with_groups();
  std::int64_t checked = 0;
  const Mesh back = mesh_in_child("part.geo", generous(), [&](const GeoMeshEstimate& e) { checked = e.cells; }, [&](const MeshingProgress& progress) {
    progress.step("meshing the cells");
    progress.estimated(estimate_of(1000, 0.1));
    return box_with_groups();
  });
  CHECK(checked == 1000);  // the estimate reached the check, in this process
  CHECK(back.dimension == made.dimension);
  CHECK(back.coords == made.coords);
  for (auto [a, b] : {std::pair{&back.cells, &made.cells}, std::pair{&back.boundary, &made.boundary}}) {
    CHECK(a->type == b->type);
    CHECK(a->offset == b->offset);
    CHECK(a->node == b->node);
    CHECK(a->tag == b->tag);
  }
  REQUIRE(back.groups.size() == made.groups.size());
  REQUIRE(!made.groups.empty());
  for (std::size_t g = 0; g < made.groups.size(); ++g) {
    CHECK(back.groups[g].name == made.groups[g].name);
    CHECK(back.groups[g].dimension == made.groups[g].dimension);
    CHECK(back.groups[g].elements == made.groups[g].elements);
  }
  CHECK(back.source == made.source);
}

TEST_CASE("the child's error comes back as its message") {
  CHECK(failure_of(generous(), [](const MeshingProgress&) -> Mesh { throw std::runtime_error("part.geo:3: syntax error"); }) ==
        "part.geo:3: syntax error");
}

TEST_CASE("what the check of the estimate throws stops the child and is thrown on") {
  struct TooLarge {};
  const Stopwatch clock;
  CHECK_THROWS_AS(mesh_in_child("part.geo", generous(), [](const GeoMeshEstimate&) { throw TooLarge{}; },
                                [](const MeshingProgress& progress) -> Mesh {
                                  progress.estimated(estimate_of(1000000000, 1e-6));
                                  for (volatile long i = 0;; ++i) {
                                  }
                                }),
                  TooLarge);
  CHECK(clock.seconds() < 10);
}

TEST_CASE("a child that runs past its time is stopped, naming the file, the step and the budget") {
  MeshingBudget budget = generous();
  budget.seconds = 0.5;
  const Stopwatch clock;
  const std::string message = failure_of(budget, [](const MeshingProgress& progress) -> Mesh {
    progress.step("reading the file");
    for (volatile long i = 0;; ++i) {
    }
  });
  CAPTURE(message);
  CHECK(clock.seconds() < 10);
  CHECK(message.find("part.geo: Gmsh was stopped after ") == 0);
  CHECK(message.find("while reading the file") != std::string::npos);
  CHECK(message.find("mesh.time_limit") != std::string::npos);
  CHECK(message.find("a loop (For) or macro (Call)") != std::string::npos);
}

TEST_CASE("the estimate of the cells extends the time budget by its rate") {
  MeshingBudget budget = generous();
  budget.seconds = 0.2;
  budget.seconds_per_cell = 1e-3;  // 1000 cells: one more second
  const Mesh back = mesh_in_child("part.geo", budget, nullptr, [](const MeshingProgress& progress) {
    progress.estimated(estimate_of(1000, 0.01));
    const Stopwatch clock;
    while (clock.seconds() < 0.6) {
    }
    return box_with_groups();
  });
  CHECK(back.cells.size() == box_with_groups().cells.size());
  budget.seconds_per_cell = 0;
  const std::string message = failure_of(budget, [](const MeshingProgress& progress) -> Mesh {
    progress.step("meshing the cells");
    progress.estimated(estimate_of(1000, 0.01));
    for (volatile long i = 0;; ++i) {
    }
  });
  CAPTURE(message);
  CHECK(message.find("while meshing the cells") != std::string::npos);
  CHECK(message.find("estimated at 1e+03 (element size 0.01") != std::string::npos);
}

TEST_CASE("a child that grows past its memory is stopped, naming the memory") {
  MeshingBudget budget = generous();
  budget.bytes = std::size_t(400) << 20;
  const std::string message = failure_of(budget, [](const MeshingProgress& progress) -> Mesh {
    progress.step("meshing the cells");
    std::vector<std::vector<char>> held;
    for (;;) {
      held.emplace_back(std::size_t(16) << 20);
      std::memset(held.back().data(), 1, held.back().size());  // resident, not only reserved
    }
  });
  CAPTURE(message);
  CHECK(message.find("part.geo: Gmsh was stopped at ") == 0);
  CHECK(message.find("while meshing the cells, the memory available to it (0.391 GiB)") != std::string::npos);
}

TEST_CASE("a child that crashes is named with its signal") {
  const std::string message = failure_of(generous(), [](const MeshingProgress& progress) -> Mesh {
    progress.step("reading the file");
    std::signal(SIGSEGV, SIG_DFL);  // not the test framework's report
    std::raise(SIGSEGV);
    return {};
  });
  CAPTURE(message);
  CHECK(message.find("part.geo: Gmsh ended with signal ") == 0);  // SEGV, or ABRT under the sanitizers
  CHECK(message.find("while reading the file: this file crashes Gmsh") != std::string::npos);
}
