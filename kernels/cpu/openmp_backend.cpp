#include "kernels/cpu/openmp_backend.hpp"

#include "kernels/cpu/packed_gemm.hpp"
#include "kernels/cpu/reference_dense.hpp"

#include <omp.h>

namespace fem::kernels::cpu {

std::string OpenMPBackend::description() const {
  return "OpenMP packed cache-blocked GEMM, " + std::to_string(omp_get_max_threads()) + " threads";
}

void OpenMPBackend::gemm_kernel(Op op_a, Op op_b, double alpha, const DeviceMatrix<double>& a,
                                const DeviceMatrix<double>& b, double beta,
                                const DeviceMatrix<double>& c, Fill fill) {
  packed_gemm(alpha, const_host_view(a, op_a), const_host_view(b, op_b), beta, host_view(c), fill);
}
void OpenMPBackend::gemm_kernel(Op op_a, Op op_b, float alpha, const DeviceMatrix<float>& a,
                                const DeviceMatrix<float>& b, float beta,
                                const DeviceMatrix<float>& c, Fill fill) {
  packed_gemm(alpha, const_host_view(a, op_a), const_host_view(b, op_b), beta, host_view(c), fill);
}

// A diagonal tile is small: its Cholesky is not worth threads.
index_t OpenMPBackend::potrf_tile(const DeviceMatrix<double>& a) {
  return reference_potrf(host_view(a));
}
index_t OpenMPBackend::potrf_tile(const DeviceMatrix<float>& a) {
  return reference_potrf(host_view(a));
}

// The right-hand sides of a tile solve are independent: one thread takes a share of them.
void OpenMPBackend::trsm_tile(Side side, Op op_l, const DeviceMatrix<double>& l,
                              const DeviceMatrix<double>& b) {
  reference_trsm(side, op_l, const_host_view(l), host_view(b), true);
}
void OpenMPBackend::trsm_tile(Side side, Op op_l, const DeviceMatrix<float>& l,
                              const DeviceMatrix<float>& b) {
  reference_trsm(side, op_l, const_host_view(l), host_view(b), true);
}

}  // namespace fem::kernels::cpu
