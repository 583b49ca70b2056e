#include "bench/frontal/cholmod_reference.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstring>

#include "support/stopwatch.hpp"

#if FEM_WITH_CHOLMOD
#include <cholmod.h>
#endif

namespace fem::bench {

namespace {

// OpenBLAS's own calls, looked up where the process finds them (CHOLMOD's libblas.so.3 is
// Debian's OpenBLAS shim over the same libopenblas.so.0 when the alternatives point there).
template <class F>
F* openblas(const char* name) {
  return reinterpret_cast<F*>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

std::string blas_in_use() {
  std::string loaded;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        const char* name = info->dlpi_name;
        if (std::strstr(name, "blas") || std::strstr(name, "lapack"))
          *static_cast<std::string*>(out) += std::string(" ") + name;
        return 0;
      },
      &loaded);
  std::string text = "loaded:" + (loaded.empty() ? std::string(" none") : loaded);
  Dl_info where{};
  if (void* dgemm = dlsym(RTLD_DEFAULT, "dgemm_"); dgemm && dladdr(dgemm, &where) && where.dli_fname)
    text += "; dgemm_ from " + std::string(where.dli_fname);
  if (auto* config = openblas<char*()>("openblas_get_config"))
    text += "; " + std::string(config()) + ", " + std::to_string(openblas<int()>("openblas_get_num_threads")()) +
            " threads";
  return text;
}

#if FEM_WITH_CHOLMOD

// A symmetric matrix's CSR is its CSC: handed over as is, with stype 1 (CHOLMOD reads the
// upper triangle of the CSC, i.e. our lower).
CholmodRun run_cholmod(const CsrMatrix& k, std::span<const double> rhs, int blas_threads) {
  CholmodRun run;
  run.available = true;
  auto* get_threads = openblas<int()>("openblas_get_num_threads");
  auto* set_threads = openblas<void(int)>("openblas_set_num_threads");
  const int threads_before = get_threads ? get_threads() : 0;
  if (blas_threads > 0 && set_threads) set_threads(blas_threads);
  cholmod_common common;
  cholmod_l_start(&common);
  common.useGPU = 0;  // CHOLMOD on the host's cores (Debian's is built without CUDA anyway)
  const auto n = static_cast<std::size_t>(k.rows);
  cholmod_sparse* a = cholmod_l_allocate_sparse(n, n, static_cast<std::size_t>(k.nnz()), 1, 1, 1, CHOLMOD_REAL, &common);
  auto* p = static_cast<SuiteSparse_long*>(a->p);
  auto* i = static_cast<SuiteSparse_long*>(a->i);
  auto* x = static_cast<double*>(a->x);
  for (std::size_t r = 0; r <= n; ++r) p[r] = k.row_ptr[r];
  for (std::int64_t e = 0; e < k.nnz(); ++e) i[e] = k.col[e], x[e] = k.val[e];
  cholmod_dense* b = cholmod_l_zeros(n, 1, CHOLMOD_REAL, &common);
  std::copy(rhs.begin(), rhs.end(), static_cast<double*>(b->x));
  const std::size_t before = common.memory_inuse;
  common.memory_usage = common.memory_inuse;  // count the peak from here

  Stopwatch phase;
  cholmod_factor* l = cholmod_l_analyze(a, &common);
  run.time_analyse_s = phase.restart();
  cholmod_l_factorize(a, l, &common);
  run.time_factor_s = phase.restart();
  cholmod_dense* u = cholmod_l_solve(CHOLMOD_A, l, b, &common);
  run.time_solve_s = phase.seconds();

  run.flops = common.fl;
  run.factor_bytes = static_cast<std::size_t>(common.lnz) * (sizeof(double) + sizeof(SuiteSparse_long));
  run.peak_bytes = common.memory_usage - before;
  run.stored_bytes = l->xsize * sizeof(double) + (l->is_super ? l->ssize : l->nzmax) * sizeof(SuiteSparse_long);
  run.method = std::string(l->is_super ? "supernodal" : "simplicial") +
               (common.status == CHOLMOD_NOT_POSDEF ? " (not positive definite!)" : "");
  run.solution.assign(static_cast<double*>(u->x), static_cast<double*>(u->x) + n);
  cholmod_l_free_dense(&u, &common);
  cholmod_l_free_factor(&l, &common);
  cholmod_l_free_dense(&b, &common);
  cholmod_l_free_sparse(&a, &common);
  cholmod_l_finish(&common);
  run.blas_threads = get_threads ? get_threads() : 0;
  if (blas_threads > 0 && set_threads) set_threads(threads_before);
  return run;
}

#else

CholmodRun run_cholmod(const CsrMatrix&, std::span<const double>, int) { return {}; }

#endif

}  // namespace fem::bench
