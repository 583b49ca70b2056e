#include "fem/pipeline/discrete_system.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "fem/assembly/device_assembly.hpp"
#include "fem/assembly/residual.hpp"
#include "fem/physics/element_matrices.hpp"
#include "fem/renumber/element_order.hpp"
#include "kernels/shared/block_spmv.hpp"
#include "kernels/shared/vector_ops.hpp"
#include "kernels/sparse_backend.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"
#include "support/step_times.hpp"

namespace fem {
namespace {

// |K u - f| / |f| by the device that holds K's node blocks (the CUDA device: the one that
// assembles); only u and f go there, two numbers come back.
double relative_residual_on_device(const kernels::SparseMatrix& k, std::span<const double> f, std::span<const double> u) {
  const auto device = kernels::make_sparse_backend("cuda");
  const auto x = device->vector(u.size()), y = device->vector(f.size());
  x->upload(u);
  y->upload(f);
  const double norm_f = std::sqrt(device->dot(*y, *y));
  device->block_spmv(k, 1.0, *x, -1.0, *y);
  return norm_f > 0 ? std::sqrt(device->dot(*y, *y)) / norm_f : 0.0;
}

}  // namespace

DiscreteSystem::DiscreteSystem(const Problem& problem, const renumber::NodeGraph& graph, const NodeOrdering& ordering)
    : problem_(problem),
      graph_(graph),
      ordering_(ordering),
      dofs_(make_dof_map(problem.mesh->num_nodes(), problem.physics.dofs_per_node(), ordering.permutation.new_of_old)) {
  const int d = problem.physics.dofs_per_node();
  for (int node = 0; node < graph.num_nodes(); ++node) nnz_ += static_cast<std::int64_t>(graph.degree(node) + 1) * d * d;
  constraints_ = collect_constraints(problem, dofs_);
  const auto& coords = problem.mesh->coords;
  coordinates_in_equation_order_.resize(coords.size());
  for (std::size_t rank = 0; rank < dofs_.node_at_rank.size(); ++rank)
    for (int k = 0; k < 3; ++k) coordinates_in_equation_order_[3 * rank + k] = coords[3 * dofs_.node_at_rank[rank] + k];
}

double DiscreteSystem::prepare(bool by_elements, ProgressMeter* progress) {
  if (by_elements ? element_system_built_ : assembled_) return 0.0;
  const Stopwatch watch;
  const Mesh& mesh = *problem_.mesh;
  try {
    if (by_elements) {
      // The frontal method never assembles: it takes element matrices in an order that keeps the front small.
      const auto cells = renumber::element_order_by_nodes(mesh.cells.offset, mesh.cells.node, ordering_.permutation);
      element_system_ = make_element_system(problem_, dofs_, constraints_, {cells.begin(), cells.end()});
      // Computing one element checks the mesh the way assembly would (inverted elements).
      ElementContribution probe;
      if (!element_system_.order.empty()) element_system_.system.element(element_system_.order.front(), probe);
      element_system_built_ = true;
    } else if (auto on_device = on_cuda_ ? assemble_on_cuda(problem_, dofs_, graph_, constraints_, in_node_blocks_)
                                         : std::nullopt) {
      assembled_system_ = std::move(*on_device);
      assembled_ = assembled_on_cuda_ = true;
    } else {
      AssembledSystemData& k = assembled_system_;
      k = timed_step("assemble.matrix", [&] {
        return assemble(problem_, dofs_, graph_, AssemblyStrategy::Coloring, progress, in_node_blocks_);
      });
      timed_step("assemble.constraints", [&] {
        if (in_node_blocks_) apply_constraints(k.blocks, k.rhs, constraints_);
        else apply_constraints(k.matrix, k.rhs, constraints_);
      });
      assembled_ = true;
    }
  } catch (const InvertedElement& e) {
    throw CaseError(mesh.source + ": " + e.what());
  }
  return watch.seconds();
}

template <class Solve>
SolveReport DiscreteSystem::translating_failures(Solve&& solve) const {
  try {
    return solve();
  } catch (const SolveFailure& e) {
    if (e.equation() < 0) throw;
    throw SolveFailure(std::string(e.what()) + " [at " + dofs_.describe(e.equation()) + "]", e.equation());
  } catch (const InvertedElement& e) {
    throw CaseError(problem_.mesh->source + ": " + e.what());
  }
}

SystemMatrix DiscreteSystem::system_matrix() const {
  const AssembledSystemData& k = assembled_system_;
  if (!k.in_node_blocks()) return k.matrix;
  SystemMatrix blocks(k.blocks);
  blocks.blocks_on_device = k.blocks_on_device;
  if (values_on_device_alone()) blocks.fetch_values = [this] { fetch_values(); };
  return blocks;
}

bool DiscreteSystem::values_on_device_alone() const {
  const AssembledSystemData& k = assembled_system_;
  return k.in_node_blocks() && k.blocks.val.empty() && !k.blocks.col.empty() && k.blocks_on_device;
}

void DiscreteSystem::fetch_values() const {
  if (!values_on_device_alone()) return;
  kernels::BlockMatrix<double>& blocks = assembled_system_.blocks;
  timed_step("values_to_host", [&] {
    blocks.val.resize(static_cast<std::size_t>(blocks.nnz()));
    if (!assembled_system_.blocks_on_device->values_to_host(blocks.val))
      throw std::logic_error("DiscreteSystem: the device's K cannot be copied back");
  });
}

SolveReport DiscreteSystem::solve(LinearSolver& solver, std::span<double> u) const {
  const bool by_elements = solver.uses_element_matrices();
  if (by_elements ? !element_system_built_ : !assembled_)
    throw std::logic_error("DiscreteSystem::solve before prepare() for this kind of solver");
  return translating_failures([&] {
    if (by_elements) return solver.solve(element_system_.system, u);
    const AssembledSystemData& k = assembled_system_;
    return solver.solve(AssembledSystem{system_matrix(), k.rhs, nodes()}, u);
  });
}

SolveReport DiscreteSystem::solve(LinearSolver& solver, std::span<const double> rhs, std::span<double> solutions,
                                  int count) const {
  if (!assembled_) throw std::logic_error("DiscreteSystem::solve of several right-hand sides before prepare(false)");
  return translating_failures([&] {
    const auto prepared = assembled_system_.in_node_blocks() ? solver.prepare(system_matrix(), nodes())
                                                             : solver.prepare(assembled_system_.matrix, nodes());
    SolveReport report = prepared->solve(rhs, solutions, count);
    const SolveReport& setup = prepared->setup();
    report.time_setup_s = setup.time_setup_s;
    report.memory_bytes = std::max(report.memory_bytes, setup.memory_bytes);
    report.figures.insert(setup.figures.begin(), setup.figures.end());
    report.figures["reuses_preparation"] = prepared->reuses_preparation() ? 1 : 0;
    return report;
  });
}

std::vector<double> DiscreteSystem::right_hand_side(const Problem& own) const {
  if (!assembled_) throw std::logic_error("DiscreteSystem::right_hand_side before prepare(false)");
  // The constraints are the common ones, so the lifting already in f serves every load set.
  std::vector<double> rhs = assemble_loads(own, dofs_);
  for (std::size_t i = 0; i < rhs.size(); ++i)
    rhs[i] = assembled_system_.rhs[i] + (constraints_.is_fixed(static_cast<std::int64_t>(i)) ? 0.0 : rhs[i]);
  return rhs;
}

const AssembledSystemData& DiscreteSystem::assembled() const {
  if (!assembled_) throw std::logic_error("DiscreteSystem::assembled before prepare(false)");
  fetch_values();
  if (assembled_system_.in_node_blocks() && assembled_system_.matrix.rows == 0)
    assembled_system_.matrix = amg::to_csr(assembled_system_.blocks);
  return assembled_system_;
}

double DiscreteSystem::relative_residual(bool by_elements, std::span<const double> u) const {
  if (by_elements) return element_relative_residual(problem_, dofs_, constraints_, u);
  return relative_residual(assembled_system_.rhs, u);
}

double DiscreteSystem::relative_residual(std::span<const double> rhs, std::span<const double> u) const {
  if (!assembled_) throw std::logic_error("DiscreteSystem::relative_residual of the assembled K before prepare(false)");
  if (values_on_device_alone()) return relative_residual_on_device(*assembled_system_.blocks_on_device, rhs, u);
  std::vector<double> ku(u.size());
  if (assembled_system_.in_node_blocks()) kernels::block_spmv(assembled_system_.blocks, 1.0, u, 0.0, ku);
  else cpu::spmv(assembled_system_.matrix, u, ku);
  cpu::axpy(-1.0, rhs, ku);
  const double norm_f = std::sqrt(cpu::dot(rhs, rhs));
  return norm_f > 0 ? std::sqrt(cpu::dot(ku, ku)) / norm_f : 0.0;
}

std::vector<double> DiscreteSystem::in_mesh_order(std::span<const double> u) const {
  const int d = dofs_.dofs_per_node;
  std::vector<double> out(u.size());
  for (std::size_t node = 0; node < dofs_.node_rank.size(); ++node)
    for (int c = 0; c < d; ++c) out[node * d + c] = u[dofs_.dof(static_cast<int>(node), c)];
  return out;
}

}  // namespace fem
