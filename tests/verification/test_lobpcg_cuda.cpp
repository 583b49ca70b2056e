// LOBPCG on the CUDA device against the same method on the host and shift-invert Lanczos (band
// Cholesky, host) on 3D bodies: a clamped hex8 bar (fixed, massless equations) and a free hex20
// block (six rigid-body modes). Skipped where no CUDA device can be used.
#include <doctest/doctest.h>

#include <string>

#include "fem/mesh/box_mesh.hpp"
#include "kernels/compute_backend.hpp"
#include "solvers/eigen/mode_residuals.hpp"
#include "tests/support/solve.hpp"
#include "tests/verification/modal_pencil.hpp"

using namespace fem;
using namespace fem::testing;

namespace {

// True (with the reason as a message) where this build or machine has no CUDA device, as on CI.
bool skip_without_cuda() {
  const std::string why = kernels::unavailable_reason(*kernels::find_compute_backend("cuda"));
  if (!why.empty()) MESSAGE("skipped: " << why);
  return !why.empty();
}

// The lowest `modes` frequencies by LOBPCG on cuda, on the cpu and by Lanczos agree to 1e-8
// relative from `first` on (below it: rigid-body modes, all near zero).
void check_devices_agree(const Problem& p, int modes, int first) {
  const auto cuda = modes_of(p, modes, MassLumping::Consistent, EigenMethod::Lobpcg, Device::Cuda);
  const auto cpu = modes_of(p, modes, MassLumping::Consistent, EigenMethod::Lobpcg, Device::Cpu);
  const auto lanczos = modes_of(p, modes);
  REQUIRE(cuda.frequencies_hz.size() == static_cast<std::size_t>(modes));
  for (int i = 0; i < first; ++i) CHECK(cuda.frequencies_hz[i] < 1e-4 * cuda.frequencies_hz[first]);
  for (int i = first; i < modes; ++i) {
    CAPTURE(i);
    CHECK(cuda.frequencies_hz[i] == doctest::Approx(cpu.frequencies_hz[i]).epsilon(1e-8));
    CHECK(cuda.frequencies_hz[i] == doctest::Approx(lanczos.frequencies_hz[i]).epsilon(1e-8));
  }
  CHECK(cuda.eigen.solves > 0);
  // The modal run reports the residuals LOBPCG measured on the device: the host's recomputation
  // from the same K and M gives them.
  const Pencil pencil = pencil_of(p, MassLumping::Consistent);
  const auto host = eigen::mode_residuals(pencil.k.matrix, pencil.m, cuda.eigen.eigenvalues, cuda.eigen.vectors,
                                          cuda.eigen.shift);
  REQUIRE(cuda.residuals.size() == host.size());
  for (std::size_t i = 0; i < host.size(); ++i) {
    CAPTURE(i);
    CHECK(cuda.residuals[i] == doctest::Approx(host[i]).epsilon(1e-3).scale(1e-10));
  }
}

}  // namespace

TEST_CASE("LOBPCG on cuda agrees with LOBPCG on the cpu and with Lanczos in the 10 lowest frequencies") {
  if (skip_without_cuda()) return;
  SUBCASE("a bar of hex8 clamped at xmin") {
    const Mesh mesh = make_box_mesh({{2.0, 0.5, 0.3}, {24, 6, 4}, ElementShape::Hexahedron, 1, true});
    Problem p = elastic_box(mesh, ElasticModel::Solid3D, 1, 7800);
    p.dirichlet.push_back({"xmin", nodes_of_groups(mesh, {"xmin"}), {true, true, true}, {}, {}});
    check_devices_agree(p, 10, 0);
  }
  SUBCASE("a free block of hex20: six rigid-body modes, then elastic ones") {
    const Mesh mesh = make_box_mesh({{1.0, 0.6, 0.4}, {5, 3, 2}, ElementShape::Hexahedron, 2, true});
    check_devices_agree(elastic_box(mesh, ElasticModel::Solid3D, 1, 7800), 12, 6);
  }
}
