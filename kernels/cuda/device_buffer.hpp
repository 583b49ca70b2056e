#pragma once
// An array of T in CUDA device memory, freed with its owner: the one RAII device buffer of the
// CUDA back-end (band factorisation, SpMV formats, Krylov vectors). Plain C++: the CUDA calls
// are in device_buffer.cpp.
#include <cstddef>
#include <utility>

namespace fem::kernels::cuda {

// Device memory of at least one byte (so that the pointer is never null); throws on failure.
void* allocate_device_bytes(std::size_t bytes);
void free_device_bytes(void* p) noexcept;
// Copies of a few MB and more go through pinned staging buffers (staged_upload.hpp).
void copy_bytes_to_device(void* device, const void* host, std::size_t bytes);
void copy_bytes_to_host(void* host, const void* device, std::size_t bytes);
void zero_device_bytes(void* device, std::size_t bytes);

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // `count` elements, uninitialised.
  explicit DeviceBuffer(std::size_t count)
      : data_(static_cast<T*>(allocate_device_bytes(count * sizeof(T)))), size_(count) {}
  // A copy of the `count` elements from `host`, or of `host`.
  DeviceBuffer(const T* host, std::size_t count) : DeviceBuffer(count) { upload(host); }
  // ... or of a contiguous range of T on the host (a vector, a span).
  template <class Contiguous, class = decltype(std::declval<const Contiguous&>().data())>
  explicit DeviceBuffer(const Contiguous& host) : DeviceBuffer(host.data(), host.size()) {}
  ~DeviceBuffer() { free_device_bytes(data_); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }

  void upload(const T* host) { copy_bytes_to_device(data_, host, bytes()); }
  void zero() { zero_device_bytes(data_, bytes()); }
  void download(T* host) const { copy_bytes_to_host(host, data_, bytes()); }
  T* get() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace fem::kernels::cuda
