#include "kernels/cpu/host_backend.hpp"

#include "kernels/cpu/strided_view.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace fem::kernels::cpu {

namespace {

constexpr std::size_t alignment = 64;  // one cache line, one AVX-512 register

class OwnedHostStorage final : public DeviceStorage {
public:
  OwnedHostStorage(const DenseBackend* owner, std::size_t bytes)
      : DeviceStorage(owner, bytes),
        data_(std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment)) {
    if (!data_) throw std::bad_alloc();
    std::memset(data_, 0, bytes);
  }
  ~OwnedHostStorage() override { std::free(data_); }
  void* handle() const override { return data_; }

private:
  void* data_;
};

class BorrowedHostStorage final : public DeviceStorage {
public:
  BorrowedHostStorage(const DenseBackend* owner, void* data, std::size_t bytes)
      : DeviceStorage(owner, bytes), data_(data) {}
  void* handle() const override { return data_; }

private:
  void* data_;
};

void copy_rows(const char* src, std::size_t src_pitch, char* dst, std::size_t dst_pitch,
               std::size_t row_bytes, std::size_t rows) {
  for (std::size_t r = 0; r < rows; ++r)
    std::memcpy(dst + r * dst_pitch, src + r * src_pitch, row_bytes);
}

}  // namespace

std::shared_ptr<DeviceStorage> HostBackend::allocate_bytes(std::size_t bytes) {
  return std::make_shared<OwnedHostStorage>(this, bytes);
}

std::shared_ptr<DeviceStorage> HostBackend::wrap_host_bytes(void* host, std::size_t bytes) {
  return std::make_shared<BorrowedHostStorage>(this, host, bytes);
}

void HostBackend::copy_to_device(const void* host, std::size_t host_pitch, DeviceStorage& dst,
                                 std::size_t dst_offset, std::size_t dst_pitch,
                                 std::size_t row_bytes, std::size_t rows) {
  copy_rows(static_cast<const char*>(host), host_pitch,
            static_cast<char*>(dst.handle()) + dst_offset, dst_pitch, row_bytes, rows);
}

void HostBackend::copy_to_host(const DeviceStorage& src, std::size_t src_offset,
                               std::size_t src_pitch, void* host, std::size_t host_pitch,
                               std::size_t row_bytes, std::size_t rows) {
  copy_rows(static_cast<const char*>(src.handle()) + src_offset, src_pitch,
            static_cast<char*>(host), host_pitch, row_bytes, rows);
}

void HostBackend::front_assemble_kernel(const DeviceMatrix<double>& from,
                                        const std::int32_t* from_index,
                                        const DeviceMatrix<double>& batch,
                                        const std::int32_t* batch_index,
                                        const DeviceMatrix<double>& to) {
  const auto f = host_view(from), b = host_view(batch), t = host_view(to);
  const index_t n = to.rows;
#pragma omp parallel for schedule(dynamic, 16) if (n > 256)
  for (index_t i = 0; i < n; ++i) {
    const std::int32_t fi = from_index[i], bi = batch_index[i];
    for (index_t j = 0; j <= i; ++j) {
      const std::int32_t fj = from_index[j], bj = batch_index[j];
      double v = 0;
      if (fi >= 0 && fj >= 0) v = f(std::max(fi, fj), std::min(fi, fj));
      if (bi >= 0 && bj >= 0) v += b(std::max(bi, bj), std::min(bi, bj));
      t(i, j) = v;
    }
  }
}

}  // namespace fem::kernels::cpu
