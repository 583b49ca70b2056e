#include "solvers/iterative/krylov_setup.hpp"

#include <stdexcept>

#include "kernels/shared/spmv_autotune.hpp"
#include "kernels/device_matrix.hpp"

namespace fem {
namespace {

// What the back-end's matrix() gets: `auto` carries the tuning mode ("auto", "auto/fresh",
// "auto/model"); any other setting is the device's own.
std::string spmv_setting(const SolverOptions& options) {
  return options.spmv.is_auto() ? kernels::auto_spmv_setting(name_of(options.spmv_tuning)) : *options.spmv.setting;
}

}  // namespace

std::unique_ptr<kernels::SparseBackend> make_krylov_backend(const std::string& method, const SolverOptions& options,
                                                            const std::vector<Preconditioner>& preconditioners) {
  const std::string device = name_of(options.device);
  const std::string solver = method + " on " + (options.device == Device::Cpu ? "the cpu" : device);
  std::unique_ptr<kernels::SparseBackend> backend;
  try {
    backend = kernels::make_sparse_backend(device);
  } catch (const kernels::BackendUnavailable& e) {
    throw SolverUnavailable(solver + ": " + e.what());
  }
  // A device applies block-diagonal preconditioners of the blocks it has and AMG (written against
  // the back-end); the host applies any.
  std::vector<Preconditioner> supported;
  for (const auto preconditioner : preconditioners) {
    const auto block = diagonal_block(preconditioner);
    if (backend->on_host() || preconditioner == Preconditioner::Amg || (block && backend->has_block_diagonal(*block)))
      supported.push_back(preconditioner);
  }
  require_preconditioner(options.preconditioner, supported, solver);
  backend->check_setting(spmv_setting(options));
  return backend;
}

bool krylov_takes_node_blocks(const kernels::SparseBackend& backend, const SolverOptions& options) {
  return options.preconditioner == Preconditioner::Amg && (backend.on_host() || options.spmv.is_auto());
}

KrylovSetup::KrylovSetup(const kernels::SparseBackend& backend, SystemMatrix given, const NodeLayout& nodes,
                         const SolverOptions& options, SolveReport& report)
    : backend_(backend), n_(static_cast<std::size_t>(given.rows())) {
  if (given.blocks && !krylov_takes_node_blocks(backend, options))
    throw std::invalid_argument("a Krylov method takes K in node blocks with AMG alone (on a device: SpMV auto)");
  if (options.preconditioner == Preconditioner::Amg) {
    if (nodes.coordinates.empty() && options.progress)
      options.progress("amg: no node coordinates: the near-null space is the constant of each of the " +
                       std::to_string(nodes.dofs_per_node) + " components (no rotations)");
    // On a device with the SpMV left to "auto", A itself is the AMG setup's fine operator in
    // double-precision node blocks (the format a tuner picks for elasticity anyway): one
    // conversion instead of two, and no tuning. On the host too (which has no other format than
    // CSR, whatever the setting): the setup keeps those blocks there anyway, and a product over
    // blocks reads one column index per block instead of one per entry.
    const bool operator_from_amg = krylov_takes_node_blocks(backend, options);
    amg_ = std::make_unique<amg::VCycle>(backend, given, nodes, options.amg, operator_from_amg);
    for (const auto& [name, value] : amg_->figures()) report.figures[name] = value;
    if (operator_from_amg) {
      matrix_ = amg_->take_fine_operator();  // copied to the device during the setup
      block_operator_ = true;
    }
    z_ = vector();
  }
  if (!matrix_) matrix_ = backend.matrix(*given.csr, spmv_setting(options), report.figures);
  if (matrix_->device_bytes() > 0) report.figures["spmv_bytes"] = static_cast<double>(matrix_->device_bytes());
  if (options.progress && !backend.on_host())
    options.progress(std::string(name_of(options.method)) + " on " + backend.name() + ": SpMV " + matrix_->setting());
  if (amg_) return;
  host_preconditioner_ = make_preconditioner(options.preconditioner, *given.csr);
  if (const auto blocks = host_preconditioner_->inverse_blocks()) {
    block_diagonal_ = backend.block_diagonal(blocks->values, blocks->block);
    host_preconditioner_.reset();  // the back-end's copy of the blocks is the one used
  } else {
    z_ = vector();
  }
}

std::size_t KrylovSetup::bytes() const {
  return matrix_->device_bytes() + (block_diagonal_ ? block_diagonal_->device_bytes() : 0) +
         (host_preconditioner_ ? host_preconditioner_->bytes() : 0) + (amg_ ? amg_->bytes() : 0) +
         (z_ ? n_ * sizeof(double) : 0);
}

void KrylovSetup::spmv(const kernels::SparseVector& x, kernels::SparseVector& y) const {
  if (block_operator_)
    backend_.block_spmv(*matrix_, 1.0, x, 0.0, y);
  else
    backend_.spmv(*matrix_, x, y);
}

void KrylovSetup::precondition(const kernels::SparseVector& r, kernels::SparseVector& z) const {
  if (block_diagonal_)
    backend_.apply(*block_diagonal_, r, z);
  else if (amg_)
    amg_->apply(r, z);
  else
    host_preconditioner_->apply(r.host(), z.host());
}

kernels::CgSums KrylovSetup::cg_update(double alpha, const kernels::SparseVector& p, const kernels::SparseVector& q,
                                       kernels::SparseVector& u, kernels::SparseVector& r) const {
  if (block_diagonal_) return backend_.cg_update(alpha, p, q, u, r, *block_diagonal_);
  backend_.axpby(alpha, p, 1.0, u);
  backend_.axpby(-alpha, q, 1.0, r);
  precondition(r, *z_);
  z_is_of_ = &r;
  return {backend_.dot(r, *z_), backend_.dot(r, r)};
}

void KrylovSetup::cg_direction(double beta, const kernels::SparseVector& r, kernels::SparseVector& p) const {
  if (block_diagonal_) return backend_.cg_direction(beta, r, *block_diagonal_, p);
  if (z_is_of_ != &r) precondition(r, *z_);
  z_is_of_ = nullptr;
  backend_.axpby(1.0, *z_, beta, p);
}

}  // namespace fem
