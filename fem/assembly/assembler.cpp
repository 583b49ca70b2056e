#include "fem/assembly/assembler.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "fem/elements/reference_element.hpp"
#include "fem/physics/element_matrices.hpp"
#include "fem/physics/mass_matrix.hpp"
#include "support/first_failure.hpp"

namespace fem {

AssemblyStrategy parse_assembly_strategy(const std::string& name) {
  if (name == "coloring") return AssemblyStrategy::Coloring;
  if (name == "buffers") return AssemblyStrategy::ThreadBuffers;
  throw std::invalid_argument("assembly strategy '" + name + "' is not one of: coloring, buffers");
}

CsrMatrix sparsity_pattern(const renumber::NodeGraph& graph, const DofMap& dofs) {
  const int d = dofs.dofs_per_node;
  const auto nodes = static_cast<std::int64_t>(dofs.node_rank.size());
  CsrMatrix a;
  a.rows = nodes * d;
  a.row_ptr.assign(a.rows + 1, 0);
  for (std::int64_t r = 0; r < nodes; ++r) {
    const int old = dofs.node_at_rank[r];
    const auto width = (graph.degree(old) + 1) * d;
    for (int c = 0; c < d; ++c) a.row_ptr[r * d + c + 1] = width;
  }
  for (std::int64_t i = 0; i < a.rows; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  // Left uninitialised here and first written below, row by row, by the threads that assemble
  // them: no single-threaded pass over the pattern's bytes.
  a.col.resize(a.row_ptr.back());
  a.val.resize(a.row_ptr.back());
#pragma omp parallel
  {
    std::vector<std::int32_t> ranks;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t r = 0; r < nodes; ++r) {
      const int old = dofs.node_at_rank[r];
      ranks.assign(1, static_cast<std::int32_t>(r));
      for (int nb : graph.neighbours_of(old)) ranks.push_back(dofs.node_rank[nb]);
      std::sort(ranks.begin(), ranks.end());
      for (int c = 0; c < d; ++c) {
        auto* out = &a.col[a.row_ptr[r * d + c]];
        for (auto rank : ranks)
          for (int c2 = 0; c2 < d; ++c2) *out++ = rank * d + c2;
        std::fill(a.val.begin() + a.row_ptr[r * d + c], a.val.begin() + a.row_ptr[r * d + c + 1], 0.0);
      }
    }
  }
  return a;
}

kernels::BlockMatrix<double> node_block_pattern(const renumber::NodeGraph& graph, const DofMap& dofs,
                                                bool with_values) {
  const int d = dofs.dofs_per_node;
  const auto nodes = static_cast<std::int64_t>(dofs.node_rank.size());
  kernels::BlockMatrix<double> a;
  a.row_block = a.col_block = d;
  a.block_rows = a.block_cols = nodes;
  a.row_ptr.resize(static_cast<std::size_t>(nodes) + 1);
  a.row_ptr[0] = 0;
  for (std::int64_t r = 0; r < nodes; ++r) a.row_ptr[r + 1] = a.row_ptr[r] + graph.degree(dofs.node_at_rank[r]) + 1;
  a.col.resize(static_cast<std::size_t>(a.row_ptr.back()));
  if (with_values) a.val.resize(a.col.size() * static_cast<std::size_t>(d) * d);
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t r = 0; r < nodes; ++r) {
    std::int32_t* out = &a.col[a.row_ptr[r]];
    *out = static_cast<std::int32_t>(r);
    std::int32_t* end = out + 1;
    for (int nb : graph.neighbours_of(dofs.node_at_rank[r])) *end++ = dofs.node_rank[nb];
    std::sort(out, end);
    const std::int64_t block_size = std::int64_t{d} * d;
    if (with_values) std::fill(a.val.data() + a.row_ptr[r] * block_size, a.val.data() + a.row_ptr[r + 1] * block_size, 0.0);
  }
  return a;
}

namespace {

// Adds one element's matrix and load into the global arrays: its load alone when `values` is
// null, its matrix alone when `rhs` is. The matrix is CSR rows (a node's d columns together) or
// d x d node blocks, either way with sorted columns.
class Scatter {
 public:
  Scatter(const CsrMatrix& pattern, const DofMap& dofs)
      : row_ptr_(pattern.row_ptr.data()), col_(pattern.col.data()), dofs_(dofs), in_blocks_(false) {}
  Scatter(const kernels::BlockMatrix<double>& pattern, const DofMap& dofs)
      : row_ptr_(pattern.row_ptr.data()), col_(pattern.col.data()), dofs_(dofs), in_blocks_(true) {}

  void add(std::span<const int> nodes, const ElementBuffers& e, double* values, double* rhs) const {
    const int d = dofs_.dofs_per_node;
    const int n = static_cast<int>(nodes.size());
    const int nd = n * d;
    if (rhs)
      for (int a = 0; a < n; ++a)
        for (int c = 0; c < d; ++c) rhs[dofs_.dof(nodes[a], 0) + c] += e.load[a * d + c];
    if (!values) return;
    // The element's nodes in column order: each of its rows is then matched in one forward pass
    // over the row's sorted columns (a node's first column in CSR, its rank in blocks).
    int order[kMaxElementNodes];
    std::int32_t column[kMaxElementNodes];
    for (int b = 0; b < n; ++b) {
      order[b] = b;
      column[b] = static_cast<std::int32_t>(dofs_.dof(nodes[b], 0) / (in_blocks_ ? d : 1));
    }
    std::sort(order, order + n, [&](int x, int y) { return column[x] < column[y]; });
    const int step = in_blocks_ ? 1 : d;
    for (int a = 0; a < n; ++a) {
      const std::int64_t row0 = dofs_.dof(nodes[a], 0);
      const std::int64_t start = row_ptr_[in_blocks_ ? row0 / d : row0];
      const std::int32_t* cols = &col_[start];
      std::int64_t offset = 0;
      for (int s = 0; s < n; ++s) {
        const int b = order[s];
        while (cols[offset] != column[b]) offset += step;
        for (int i = 0; i < d; ++i) {
          double* row = in_blocks_ ? values + (start + offset) * d * d + i * d : values + row_ptr_[row0 + i] + offset;
          const double* src = &e.matrix[static_cast<std::size_t>(a * d + i) * nd + b * d];
          for (int j = 0; j < d; ++j) row[j] += src[j];
        }
      }
    }
  }

 private:
  const std::int64_t* row_ptr_;
  const std::int32_t* col_;
  const DofMap& dofs_;
  bool in_blocks_;
};

// Boundary loads touch few elements: serial. `values` null: their loads alone.
void add_boundary_loads(const Problem& problem, const Scatter& scatter, double* values, double* rhs) {
  const Mesh& mesh = *problem.mesh;
  ElementBuffers buffers;
  for (const auto& load : problem.loads)
    for (std::size_t k = 0; k < load.facets.size(); ++k) {
      facet_contribution(problem, load, k, buffers);
      scatter.add(mesh.boundary.nodes_of(load.facets[k]), buffers, values, rhs);
    }
}

// Sums `kernel(cell, buffers)` (an element matrix and load) over every cell into `matrix` (its
// pattern already built) and `rhs_vector` (none when null), on the host threads; returns the
// colours used (Coloring).
template <class CellKernel>
int assemble_cells(const Problem& problem, AssemblyStrategy strategy, ProgressMeter* progress, CellKernel&& kernel,
                   const Scatter& scatter, std::span<double> matrix_values, std::vector<double>* rhs_vector) {
  const Mesh& mesh = *problem.mesh;
  double* values = matrix_values.data();
  double* rhs = rhs_vector ? rhs_vector->data() : nullptr;
  const std::size_t rhs_size = rhs_vector ? rhs_vector->size() : 0;

  FirstFailure failure;
  auto guarded = [&](auto&& body) { failure.run(body); };
  // Elements done, counted by every thread; only thread 0 reports them, so one at a time.
  std::atomic<std::int64_t> elements_done{0};
  const auto elements = static_cast<std::int64_t>(mesh.cells.size());
  auto count_element = [&] {
    if (!progress) return;
    const std::int64_t done = elements_done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (omp_get_thread_num() == 0) progress->steps("elements", done, elements);
  };

  int colors = 0;
  if (strategy == AssemblyStrategy::Coloring) {
    const auto blocks = color_element_blocks(mesh.cells, {}, mesh.num_nodes());
    colors = static_cast<int>(blocks.colors.size());
#pragma omp parallel
    {
      ElementBuffers buffers;
      for (const auto& group : blocks.colors) {
#pragma omp for schedule(dynamic, 1)
        for (std::size_t k = 0; k < group.size(); ++k)
          for (std::size_t e : blocks.block(group[k]))
            guarded([&] {
              kernel(e, buffers);
              scatter.add(mesh.cells.nodes_of(e), buffers, values, rhs);
              count_element();
            });
      }
    }
  } else {
    const int threads = omp_get_max_threads();
    const std::size_t nnz = matrix_values.size();
    std::vector<std::vector<double>> private_values(threads), private_rhs(threads);
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      private_values[t].assign(nnz, 0.0);
      private_rhs[t].assign(rhs_size, 0.0);
      ElementBuffers buffers;
#pragma omp for schedule(dynamic, 64)
      for (std::size_t e = 0; e < mesh.cells.size(); ++e)
        guarded([&] {
          kernel(e, buffers);
          scatter.add(mesh.cells.nodes_of(e), buffers, private_values[t].data(), rhs ? private_rhs[t].data() : nullptr);
          count_element();
        });
#pragma omp for schedule(static)
      for (std::size_t k = 0; k < nnz; ++k)
        for (int s = 0; s < threads; ++s) values[k] += private_values[s][k];
#pragma omp for schedule(static)
      for (std::size_t k = 0; k < rhs_size; ++k)
        for (int s = 0; s < threads; ++s) rhs[k] += private_rhs[s][k];
    }
  }
  failure.rethrow_if_failed();
  return colors;
}

}  // namespace

AssembledSystemData assemble(const Problem& problem, const DofMap& dofs, const renumber::NodeGraph& graph,
                             AssemblyStrategy strategy, ProgressMeter* progress, bool in_node_blocks) {
  AssembledSystemData out;
  if (in_node_blocks) out.blocks = node_block_pattern(graph, dofs);
  else out.matrix = sparsity_pattern(graph, dofs);
  const Scatter scatter = in_node_blocks ? Scatter(out.blocks, dofs) : Scatter(out.matrix, dofs);
  const std::span<double> values = in_node_blocks ? std::span<double>(out.blocks.val) : std::span<double>(out.matrix.val);
  out.rhs.assign(static_cast<std::size_t>(dofs.num_dofs()), 0.0);
  out.colors = assemble_cells(
      problem, strategy, progress, [&](std::size_t e, ElementBuffers& b) { cell_contribution(problem, e, b); }, scatter,
      values, &out.rhs);
  add_boundary_loads(problem, scatter, values.data(), out.rhs.data());
  return out;
}

std::vector<double> assemble_loads(const Problem& problem, const DofMap& dofs, bool body_loads) {
  const Mesh& mesh = *problem.mesh;
  std::vector<double> rhs(static_cast<std::size_t>(dofs.num_dofs()), 0.0);
  const CsrMatrix no_matrix;
  const Scatter scatter(no_matrix, dofs);
  // Body loads (gravity, a heat source) by the matrix's loop over coloured blocks of cells, with
  // no matrix; none where no material has one (the cells are not visited). A cell of a material
  // without one adds zeros.
  if (body_loads && has_body_load(problem)) {
    const int d = dofs.dofs_per_node;
    const auto body_load = [&](std::size_t e, ElementBuffers& b) {
      if (!cell_body_load(problem, e, b)) b.load.assign(mesh.cells.nodes_of(e).size() * d, 0.0);
    };
    assemble_cells(problem, AssemblyStrategy::Coloring, nullptr, body_load, scatter, {}, &rhs);
  }
  add_boundary_loads(problem, scatter, nullptr, rhs.data());
  return rhs;
}

CsrMatrix assemble_mass(const Problem& problem, const DofMap& dofs, const renumber::NodeGraph& graph,
                        MassLumping lumping, AssemblyStrategy strategy) {
  CsrMatrix matrix = sparsity_pattern(graph, dofs);
  assemble_cells(
      problem, strategy, nullptr, [&](std::size_t e, ElementBuffers& b) { cell_mass(problem, e, lumping, b); },
      Scatter(matrix, dofs), matrix.val, nullptr);
  return matrix;
}

}  // namespace fem
