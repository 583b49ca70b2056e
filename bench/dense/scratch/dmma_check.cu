// Temporary: gemm_dmma on every layout, even and odd sizes, offsets, lower fill, vs a CPU reference.
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_kernels.hpp"
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
using namespace fem::kernels::cuda;
int main() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  int fails = 0, runs = 0;
  const int shapes[][3] = {{130, 258, 66}, {256, 128, 64}, {257, 130, 34}, {128, 256, 33}, {300, 200, 100}, {64, 96, 2}};
  for (auto& s : shapes)
    for (int off : {0, 1})
      for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb)
          for (int lower = 0; lower < 2; ++lower) {
            const int m = s[0], n = lower ? s[0] : s[1], k = s[2];
            const int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
            const int lda = ac + 2, ldb = bc + 4, ldc = n + 2;
            std::vector<double> A(off + ar * lda), B(off + br * ldb), C(off + m * ldc);
            for (auto& v : A) v = u(rng);
            for (auto& v : B) v = u(rng);
            for (auto& v : C) v = u(rng);
            double *dA, *dB, *dC;
            cudaMalloc(&dA, A.size() * 8); cudaMalloc(&dB, B.size() * 8); cudaMalloc(&dC, C.size() * 8);
            cudaMemcpy(dA, A.data(), A.size() * 8, cudaMemcpyHostToDevice);
            cudaMemcpy(dB, B.data(), B.size() * 8, cudaMemcpyHostToDevice);
            cudaMemcpy(dC, C.data(), C.size() * 8, cudaMemcpyHostToDevice);
            GemmCall<double> g{m, n, k, 0.75,
                               {dA + off, ta ? 1LL : lda, ta ? (long long)lda : 1LL},
                               {dB + off, tb ? 1LL : ldb, tb ? (long long)ldb : 1LL},
                               -1.25, dC + off, ldc, bool(lower)};
            gemm_dmma(g);
            check(cudaDeviceSynchronize(), "run");
            std::vector<double> got(C.size());
            cudaMemcpy(got.data(), dC, C.size() * 8, cudaMemcpyDeviceToHost);
            double num = 0, den = 0;
            for (int i = 0; i < m; ++i)
              for (int j = 0; j < n; ++j) {
                double ref = C[off + i * ldc + j];
                if (!(lower && j > i)) {
                  double acc = 0;
                  for (int p = 0; p < k; ++p)
                    acc += A[off + (ta ? p * lda + i : i * lda + p)] * B[off + (tb ? j * ldb + p : p * ldb + j)];
                  ref = 0.75 * acc - 1.25 * ref;
                }
                num += std::pow(got[off + i * ldc + j] - ref, 2); den += ref * ref;
              }
            const double err = std::sqrt(num / den);
            ++runs;
            if (!(err < 1e-13)) { ++fails; std::printf("FAIL m=%d n=%d k=%d off=%d ta=%d tb=%d lower=%d err=%g\n", m, n, k, off, ta, tb, lower, err); }
            cudaFree(dA); cudaFree(dB); cudaFree(dC);
          }
  std::printf("dmma_check: %d of %d cases failed\n", fails, runs);
  return fails != 0;
}
