#include "kernels/block_matrix.hpp"

#include <sys/mman.h>

#include <cstdlib>

namespace fem::kernels {
namespace {

constexpr std::size_t kHugePage = std::size_t(2) << 20;

std::size_t whole_huge_pages(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

}  // namespace

void* allocate_large_array(std::size_t bytes) {
  const std::size_t size = whole_huge_pages(bytes);
  void* p = std::aligned_alloc(kHugePage, size);
  if (!p) throw std::bad_alloc();
  // Advice only: where the kernel has no huge pages to give, the ordinary pages serve.
  madvise(p, size, MADV_HUGEPAGE);
  return p;
}

void free_large_array(void* p, std::size_t) noexcept { std::free(p); }

}  // namespace fem::kernels
