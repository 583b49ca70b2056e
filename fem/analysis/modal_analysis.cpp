#include "fem/analysis/modal_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "kernels/shared/vector_ops.hpp"
#include "solvers/eigen/lobpcg.hpp"
#include "solvers/eigen/mode_residuals.hpp"
#include "solvers/eigen/shift_invert_lanczos.hpp"
#include "solvers/eigen_table.hpp"
#include "support/stopwatch.hpp"

namespace fem {

double shift_of_frequency(double hz) {
  const double omega = 2 * std::numbers::pi * hz;
  return std::copysign(omega * omega, hz);
}

double frequency_of_eigenvalue(double lambda) { return std::sqrt(std::max(lambda, 0.0)) / (2 * std::numbers::pi); }

void remove_fixed_mass(CsrMatrix& m, const Constraints& constraints) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < m.rows; ++i) {
    const bool row_fixed = constraints.is_fixed(i);
    for (auto p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p)
      if (row_fixed || constraints.is_fixed(m.col[p])) m.val[p] = 0;
  }
}

namespace {

// The unit translation along `direction` on every node's equation of that component.
std::vector<double> translation(const DofMap& dofs, int direction) {
  std::vector<double> r(static_cast<std::size_t>(dofs.num_dofs()), 0.0);
  for (std::size_t node = 0; node < dofs.node_rank.size(); ++node) r[dofs.dof(static_cast<int>(node), direction)] = 1;
  return r;
}

}  // namespace

double translational_mass(const CsrMatrix& m, const DofMap& dofs) {
  const auto r = translation(dofs, 0);
  std::vector<double> mr(r.size());
  cpu::spmv(m, r, mr);
  return cpu::dot(r, mr);
}

eigen::EigenResult solve_eigen(const CsrMatrix& k, const CsrMatrix& m, LinearSolver* solver, NodeLayout nodes,
                               const AmgOptions& amg, Device device, const AnalysisSpec& analysis,
                               std::function<void(const std::string&)> progress) {
  eigen::EigenOptions options;
  options.modes = analysis.modes;
  if (analysis.shift_hz) options.shift = shift_of_frequency(*analysis.shift_hz);
  options.progress = std::move(progress);
  options.device = device;
  switch (analysis.method) {
    case EigenMethod::Lobpcg:
      // Its test reads ||K x - lambda M x|| itself, where rigid-body modes stall well above roundoff;
      // an eigenvalue's error goes as the square of its residual.
      options.tolerance = 1e-6;
      return eigen::lobpcg(k, m, nodes, amg, options);
    case EigenMethod::Slepc: return slepc_eigen(k, m, options);
    case EigenMethod::Lanczos: break;
  }
  if (!solver) throw std::invalid_argument("solve_eigen: shift-invert Lanczos needs a linear solver");
  return eigen::shift_invert_lanczos(k, m, *solver, nodes, options);
}

ModalSolution solve_modal(const DofMap& dofs, const CsrMatrix& k, const CsrMatrix& m, double total_mass,
                          LinearSolver& solver, NodeLayout nodes, const AmgOptions& amg, Device device,
                          const AnalysisSpec& analysis, std::function<void(const std::string&)> progress) {
  ModalSolution out;
  out.eigen = solve_eigen(k, m, &solver, nodes, amg, device, analysis, std::move(progress));
  // What the answer's checks and shapes cost beside the eigen solve, in the solver's figures.
  const Stopwatch checks_clock;
  // A method that measured them on its device has them already: a second pass over K and M on
  // the host would cost more than its products did there.
  out.residuals = out.eigen.residuals.empty()
                      ? eigen::mode_residuals(k, m, out.eigen.eigenvalues, out.eigen.vectors, out.eigen.shift)
                      : out.eigen.residuals;
  out.eigen.setup.figures["modal_residuals_s"] = checks_clock.seconds();
  const Stopwatch shapes_clock;
  out.total_mass = total_mass;

  const int d = dofs.dofs_per_node;
  const auto n = static_cast<std::size_t>(dofs.num_dofs());
  const std::size_t nodes_count = dofs.node_rank.size();
  std::vector<std::vector<double>> m_translation(d);
  for (int c = 0; c < d; ++c) {
    m_translation[c].resize(n);
    cpu::spmv(m, translation(dofs, c), m_translation[c]);
  }
  const std::size_t modes = out.eigen.eigenvalues.size();
  for (const double lambda : out.eigen.eigenvalues) out.frequencies_hz.push_back(frequency_of_eigenvalue(lambda));
  out.participation.resize(modes);
  out.effective_mass.resize(modes);
  out.shapes.resize(modes);
  // A mode a thread: each pass reads one mode's n values (millions of equations, tens of modes).
#pragma omp parallel for schedule(dynamic)
  for (std::size_t i = 0; i < modes; ++i) {
    const std::span<const double> phi(out.eigen.vectors.data() + i * n, n);  // M-orthonormal: phi^T M phi = 1
    std::array<double, 3> gamma{}, mass{};
    for (int c = 0; c < d; ++c) {
      gamma[c] = cpu::dot(phi, m_translation[c]);
      mass[c] = gamma[c] * gamma[c];
    }
    out.participation[i] = gamma;
    out.effective_mass[i] = mass;

    std::vector<double> shape(3 * nodes_count, 0.0);
    double largest = 0;
    for (std::size_t node = 0; node < nodes_count; ++node) {
      double squared = 0;
      for (int c = 0; c < d; ++c) {
        const double u = phi[dofs.dof(static_cast<int>(node), c)];
        shape[3 * node + c] = u;
        squared += u * u;
      }
      largest = std::max(largest, squared);
    }
    // Normalised to a largest displacement of 1, its sign chosen so that the largest component is positive.
    const auto peak = std::max_element(shape.begin(), shape.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    const double scale = largest > 0 ? std::copysign(1.0 / std::sqrt(largest), *peak) : 1.0;
    for (double& u : shape) u *= scale;
    out.shapes[i] = std::move(shape);
  }
  out.eigen.setup.figures["modal_shapes_s"] = shapes_clock.seconds();
  return out;
}

}  // namespace fem
