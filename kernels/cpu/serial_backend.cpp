#include "kernels/cpu/serial_backend.hpp"

#include "kernels/cpu/reference_dense.hpp"

namespace fem::kernels::cpu {

void SerialBackend::gemm_kernel(Op op_a, Op op_b, double alpha, const DeviceMatrix<double>& a,
                                const DeviceMatrix<double>& b, double beta,
                                const DeviceMatrix<double>& c, Fill fill) {
  reference_gemm(alpha, const_host_view(a, op_a), const_host_view(b, op_b), beta, host_view(c), fill);
}
void SerialBackend::gemm_kernel(Op op_a, Op op_b, float alpha, const DeviceMatrix<float>& a,
                                const DeviceMatrix<float>& b, float beta,
                                const DeviceMatrix<float>& c, Fill fill) {
  reference_gemm(alpha, const_host_view(a, op_a), const_host_view(b, op_b), beta, host_view(c), fill);
}

index_t SerialBackend::potrf_tile(const DeviceMatrix<double>& a) {
  return reference_potrf(host_view(a));
}
index_t SerialBackend::potrf_tile(const DeviceMatrix<float>& a) {
  return reference_potrf(host_view(a));
}

void SerialBackend::trsm_tile(Side side, Op op_l, const DeviceMatrix<double>& l,
                              const DeviceMatrix<double>& b) {
  reference_trsm(side, op_l, const_host_view(l), host_view(b), false);
}
void SerialBackend::trsm_tile(Side side, Op op_l, const DeviceMatrix<float>& l,
                              const DeviceMatrix<float>& b) {
  reference_trsm(side, op_l, const_host_view(l), host_view(b), false);
}

}  // namespace fem::kernels::cpu
