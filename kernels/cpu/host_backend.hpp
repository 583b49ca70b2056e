#pragma once
// Memory for the back-ends that compute in host memory (serial, OpenMP and BLAS): allocation,
// copies and wrapping of caller-owned arrays, shared by all three.

#include "kernels/dense_backend.hpp"

namespace fem::kernels::cpu {

class HostBackend : public DenseBackend {
public:
  bool uses_host_memory() const override { return true; }
  void synchronize() override {}

protected:
  std::shared_ptr<DeviceStorage> allocate_bytes(std::size_t bytes) override;
  std::shared_ptr<DeviceStorage> wrap_host_bytes(void* host, std::size_t bytes) override;
  void copy_to_device(const void* host, std::size_t host_pitch, DeviceStorage& dst,
                      std::size_t dst_offset, std::size_t dst_pitch, std::size_t row_bytes,
                      std::size_t rows) override;
  void copy_to_host(const DeviceStorage& src, std::size_t src_offset, std::size_t src_pitch,
                    void* host, std::size_t host_pitch, std::size_t row_bytes,
                    std::size_t rows) override;
  // A gather with no arithmetic to speak of: the same loop serves both host back-ends.
  void front_assemble_kernel(const DeviceMatrix<double>& from,
                             const std::int32_t* from_index,
                             const DeviceMatrix<double>& batch,
                             const std::int32_t* batch_index,
                             const DeviceMatrix<double>& to) override;
};

}  // namespace fem::kernels::cpu
