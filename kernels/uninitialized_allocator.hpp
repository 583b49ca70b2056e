#pragma once
// The allocator of the large arrays of the AMG setup and its levels (block matrices, vectors of a
// value per equation). Two things it does that std::allocator does not:
// - resize() leaves new elements uninitialised: the arrays (gigabytes at millions of equations)
//   are then first written, and so placed in memory, by the parallel loops that fill them, not
//   zeroed by one thread beforehand;
// - blocks of LargeBlockCache::kLargeFrom bytes or more come from the process's LargeBlockCache:
//   a freed large array keeps its pages for the next one instead of going back to the kernel,
//   so the setup's temporaries cost page faults once, not at every allocation.
#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "support/large_block_cache.hpp"

namespace fem::kernels {

template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    if (large(n)) return static_cast<T*>(LargeBlockCache::process().allocate(n * sizeof(T)));
    return std::allocator<T>::allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (large(n)) LargeBlockCache::process().deallocate(p);
    else std::allocator<T>::deallocate(p, n);
  }

  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialised: no zeroing
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

 private:
  static bool large(std::size_t n) { return n * sizeof(T) >= LargeBlockCache::kLargeFrom; }
};

// A vector whose resize() leaves its new elements for the code that fills it.
template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace fem::kernels
