#include "solvers/frontal/factor_store.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace fem::frontal {

namespace {

std::size_t block_bytes(const FactorBlock& b) {
  return (b.pivots.size() + b.rest.size()) * sizeof(std::int32_t) + b.panel.size() * sizeof(double);
}

class MemoryFactorStore final : public FactorStore {
 public:
  void append(const FactorBlock& block) override {
    bytes_ += block_bytes(block);
    blocks_.push_back(block);
  }
  void read(std::size_t index, FactorBlock& out) override { out = blocks_.at(index); }
  std::size_t blocks() const override { return blocks_.size(); }
  std::size_t bytes() const override { return bytes_; }

 private:
  std::vector<FactorBlock> blocks_;
  std::size_t bytes_ = 0;
};

// Each block is written as its two counts and then its three arrays; only the offsets and
// counts stay in memory.
class FileFactorStore final : public FactorStore {
 public:
  explicit FileFactorStore(const std::string& directory) {
    static std::atomic<int> serial{0};
    const std::filesystem::path dir = directory.empty() ? std::filesystem::temp_directory_path()
                                                        : std::filesystem::path(directory);
    path_ = dir / ("fem-frontal-" + std::to_string(::getpid()) + "-" + std::to_string(serial++) + ".factor");
    file_.open(path_, std::ios::binary | std::ios::in | std::ios::out | std::ios::trunc);
    if (!file_) throw std::runtime_error("frontal solver: cannot create the factor file " + path_.string());
    // Unlinked while open: the stream keeps the file, and the system frees it however the
    // process ends (Ctrl-C, a kill, a crash), with nothing left in the folder.
    std::error_code ec;
    std::filesystem::remove(path_, ec);
    if (ec) throw std::runtime_error("frontal solver: cannot unlink the factor file " + path_.string() + ": " + ec.message());
  }

  void append(const FactorBlock& block) override {
    file_.seekp(0, std::ios::end);
    entries_.push_back({static_cast<std::uint64_t>(file_.tellp()), block.pivots.size(), block.rest.size()});
    write(block.pivots.data(), block.pivots.size());
    write(block.rest.data(), block.rest.size());
    write(block.panel.data(), block.panel.size());
    if (!file_) throw std::runtime_error("frontal solver: writing the factor file " + path_.string() + " failed (disk full?)");
    bytes_ += block_bytes(block);
  }

  void read(std::size_t index, FactorBlock& out) override {
    const Entry& e = entries_.at(index);
    out.pivots.resize(e.pivots);
    out.rest.resize(e.rest);
    out.panel.resize((e.pivots + e.rest + 1) * e.pivots);
    file_.seekg(static_cast<std::streamoff>(e.offset));
    read_into(out.pivots.data(), out.pivots.size());
    read_into(out.rest.data(), out.rest.size());
    read_into(out.panel.data(), out.panel.size());
    if (!file_) throw std::runtime_error("frontal solver: reading the factor file " + path_.string() + " failed");
  }

  std::size_t blocks() const override { return entries_.size(); }
  std::size_t bytes() const override { return bytes_; }

 private:
  struct Entry {
    std::uint64_t offset;
    std::size_t pivots, rest;
  };
  template <class T>
  void write(const T* data, std::size_t count) {
    file_.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(count * sizeof(T)));
  }
  template <class T>
  void read_into(T* data, std::size_t count) {
    file_.read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(count * sizeof(T)));
  }

  std::filesystem::path path_;
  std::fstream file_;
  std::vector<Entry> entries_;
  std::size_t bytes_ = 0;
};

}  // namespace

std::unique_ptr<FactorStore> make_memory_factor_store() { return std::make_unique<MemoryFactorStore>(); }

std::unique_ptr<FactorStore> make_file_factor_store(const std::string& directory) {
  return std::make_unique<FileFactorStore>(directory);
}

}  // namespace fem::frontal
