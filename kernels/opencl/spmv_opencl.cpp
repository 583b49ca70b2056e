#include "kernels/opencl/spmv_opencl.hpp"

#include "kernels/device_matrix.hpp"              // BackendUnavailable
#include "kernels/opencl/sparse_sources.hpp"      // generated: the sparse .cl files as strings
#include "support/stopwatch.hpp"

#include "kernels/opencl/cl_device.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace fem::kernels::opencl {
namespace {

constexpr int kGroup = 256;     // work-group of the vector kernels
constexpr int kGroups = 256;    // work-groups of the reductions (partials finished on the device)

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

cl_mem mem(const ClVector& v) { return static_cast<cl_mem>(v.handle()); }

template <class... Args>
void set_args(cl_kernel kernel, const Args&... args) {
  cl_uint index = 0;
  (check(clSetKernelArg(kernel, index++, sizeof(Args), &args), "clSetKernelArg"), ...);
}

std::size_t round_up(std::int64_t n, std::size_t group) {
  return (static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) + group - 1) / group * group;
}

}  // namespace

struct ClSparseDevice::Impl {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string name, driver;
  std::map<std::string, cl_program> programs;  // keyed by source name and definitions
  std::map<std::string, cl_kernel> kernels;

  ~Impl() {
    for (auto& [key, k] : kernels) clReleaseKernel(k);
    for (auto& [key, p] : programs) clReleaseProgram(p);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }

  // The kernel `entry` of source `source_name` built with `options`, built once.
  cl_kernel kernel(const char* source_name, const char* source, const std::string& options, const char* entry) {
    const std::string key = std::string(source_name) + "|" + options;
    const std::string kernel_key = key + "|" + entry;
    if (auto it = kernels.find(kernel_key); it != kernels.end()) return it->second;
    auto& program = programs[key];
    if (!program) {
      cl_int status = CL_SUCCESS;
      program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
      check(status, "clCreateProgramWithSource");
      if (clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        std::size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        clReleaseProgram(program);
        programs.erase(key);
        throw std::runtime_error(std::string("OpenCL: building ") + source_name + " with '" + options +
                                 "' failed:\n" + log);
      }
    }
    cl_int status = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, entry, &status);
    check(status, "clCreateKernel");
    kernels[kernel_key] = k;
    return k;
  }

  void launch(cl_kernel k, std::size_t global, std::size_t local) {
    check(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
  }

  cl_mem buffer(std::size_t bytes, const void* host) {
    cl_int status = CL_SUCCESS;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), std::max<std::size_t>(bytes, 8),
                              host ? const_cast<void*>(host) : nullptr, &status);
    check(status, "clCreateBuffer");
    return b;
  }
};

ClSparseDevice::ClSparseDevice() : impl_(std::make_unique<Impl>()) {
  std::string why_not;
  impl_->device = pick_device(why_not);
  if (!impl_->device) throw BackendUnavailable(why_not);
  impl_->name = device_string(impl_->device, CL_DEVICE_NAME);
  impl_->driver = device_string(impl_->device, CL_DRIVER_VERSION);
  cl_int status = CL_SUCCESS;
  impl_->context = clCreateContext(nullptr, 1, &impl_->device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  impl_->queue = clCreateCommandQueue(impl_->context, impl_->device, 0, &status);
  check(status, "clCreateCommandQueue");
}
ClSparseDevice::~ClSparseDevice() = default;
std::string ClSparseDevice::name() const { return impl_->name; }
std::string ClSparseDevice::identity() const { return impl_->name + ", OpenCL driver " + impl_->driver; }

void ClSparseDevice::run(const std::string& definitions, const char* entry, std::initializer_list<ClKernelArg> args,
                         std::size_t global, std::size_t local) const {
  cl_kernel k = impl_->kernel("sparse_vector.cl", sparse_vector_cl, definitions, entry);
  cl_uint index = 0;
  for (const auto& arg : args) check(clSetKernelArg(k, index++, arg.bytes, arg.value), "clSetKernelArg");
  impl_->launch(k, global, local);
}

ClBuffer::ClBuffer(const ClSparseDevice& device, const void* host, std::size_t bytes)
    : buffer_(device.impl().buffer(bytes, bytes > 0 ? host : nullptr)), bytes_(bytes) {}
ClBuffer::~ClBuffer() { clReleaseMemObject(static_cast<cl_mem>(buffer_)); }

ClVector::ClVector(const ClSparseDevice& device, std::size_t n)
    : device_(&device), buffer_(device.impl().buffer(n * sizeof(double), nullptr)), size_(n) {}
ClVector::~ClVector() {
  if (buffer_) clReleaseMemObject(static_cast<cl_mem>(buffer_));
}
ClVector::ClVector(ClVector&& o) noexcept : device_(o.device_), buffer_(o.buffer_), size_(o.size_) {
  o.buffer_ = nullptr, o.size_ = 0;
}
ClVector& ClVector::operator=(ClVector&& o) noexcept {
  std::swap(device_, o.device_);
  std::swap(buffer_, o.buffer_);
  std::swap(size_, o.size_);
  return *this;
}
void ClVector::upload(const double* host) {
  if (size_ == 0) return;
  check(clEnqueueWriteBuffer(device_->impl().queue, mem(*this), CL_TRUE, 0, size_ * sizeof(double), host, 0, nullptr,
                             nullptr),
        "clEnqueueWriteBuffer");
}
void ClVector::download(double* host) const {
  if (size_ == 0) return;
  check(clEnqueueReadBuffer(device_->impl().queue, mem(*this), CL_TRUE, 0, size_ * sizeof(double), host, 0, nullptr,
                            nullptr),
        "clEnqueueReadBuffer");
}

std::string to_string(const ClSpmvSetting& s) {
  switch (s.format) {
    case ClSpmvFormat::Csr:
      return "csr/wg" + std::to_string(s.group_size) + "/r" + std::to_string(s.rows_per_group);
    case ClSpmvFormat::Ell: return "ell/wg" + std::to_string(s.group_size);
    case ClSpmvFormat::Sell: return "sell/wg" + std::to_string(s.group_size);
  }
  return "?";
}

namespace {

void validate(const ClSpmvSetting& s) {
  if (!power_of_two(s.group_size) || s.group_size > 256 ||
      (s.format == ClSpmvFormat::Csr && (!power_of_two(s.rows_per_group) || s.rows_per_group > s.group_size)))
    throw std::invalid_argument("OpenCL SpMV setting '" + to_string(s) +
                                "': WG must be a power of two up to 256 and R a power of two up to WG");
}

}  // namespace

ClSpmvSetting parse_cl_spmv_setting(const std::string& text) {
  std::stringstream in(text);
  std::string part;
  std::getline(in, part, '/');
  ClSpmvSetting s;
  if (part == "csr") s.format = ClSpmvFormat::Csr;
  else if (part == "ell") s.format = ClSpmvFormat::Ell;
  else if (part == "sell") s.format = ClSpmvFormat::Sell;
  else throw std::invalid_argument("OpenCL SpMV setting '" + text + "': unknown format '" + part + "' (csr, ell, sell)");
  while (std::getline(in, part, '/')) {
    const bool wg = part.rfind("wg", 0) == 0;
    if (!wg && part.rfind("r", 0) != 0)
      throw std::invalid_argument("OpenCL SpMV setting '" + text + "': unknown field '" + part + "' (wgN, rN)");
    try {
      (wg ? s.group_size : s.rows_per_group) = std::stoi(part.substr(wg ? 2 : 1));
    } catch (const std::exception&) {
      throw std::invalid_argument("OpenCL SpMV setting '" + text + "': '" + part + "' has no number");
    }
  }
  validate(s);
  return s;
}

struct ClSpmv::Impl {
  ClSparseDevice::Impl* device = nullptr;
  ClSpmvSetting setting;
  std::int64_t rows = 0, width = 0;
  int height = 0;
  std::vector<cl_mem> buffers;  // in kernel argument order after the sizes
  std::size_t bytes = 0;
  cl_kernel kernel = nullptr;

  void select_kernel() {
    switch (setting.format) {
      case ClSpmvFormat::Csr:
        kernel = device->kernel("spmv_csr.cl", spmv_csr_cl,
                                "-D WG=" + std::to_string(setting.group_size) +
                                    " -D ROWS_PER_GROUP=" + std::to_string(setting.rows_per_group),
                                "spmv_csr");
        break;
      case ClSpmvFormat::Ell: kernel = device->kernel("spmv_ell.cl", spmv_ell_cl, "", "spmv_ell"); break;
      case ClSpmvFormat::Sell: kernel = device->kernel("spmv_ell.cl", spmv_ell_cl, "", "spmv_sell"); break;
    }
  }
  template <class T, class Allocator>
  void add(const std::vector<T, Allocator>& host) {
    buffers.push_back(device->buffer(host.size() * sizeof(T), host.empty() ? nullptr : host.data()));
    bytes += host.size() * sizeof(T);
  }
  ~Impl() {
    for (cl_mem b : buffers) clReleaseMemObject(b);
  }
};

ClSpmv::ClSpmv(const ClSparseDevice& device, const CsrMatrix& a, const ClSpmvSetting& setting,
               const PaddingLimit& limit)
    : impl_(std::make_unique<Impl>()) {
  validate(setting);
  check_csr(a);
  if (a.nnz() > INT32_MAX)
    throw FormatRefused("OpenCL SpMV: " + std::to_string(a.nnz()) + " nonzeros exceed the 32-bit indices of the kernels");
  Impl& m = *impl_;
  m.device = &device.impl();
  m.setting = setting;
  m.rows = a.rows;
  switch (setting.format) {
    case ClSpmvFormat::Csr: {
      m.add(std::vector<int>(a.row_ptr.begin(), a.row_ptr.end()));
      m.add(a.col);
      m.add(a.val);
      break;
    }
    case ClSpmvFormat::Ell: {
      const EllMatrix e = to_ell(a, limit);
      m.width = e.width;
      m.add(e.col);
      m.add(e.val);
      break;
    }
    case ClSpmvFormat::Sell: {
      const SellMatrix s = to_sell(a, 32, limit);
      m.height = s.slice_height;
      m.add(s.slice_ptr);
      m.add(s.slice_width);
      m.add(s.col);
      m.add(s.val);
      break;
    }
  }
  m.select_kernel();
}

void ClSpmv::relaunch(const ClSpmvSetting& setting) {
  if (setting.format != impl_->setting.format)
    throw std::invalid_argument("OpenCL SpMV relaunch: " + to_string(setting) + " is not the format on the device (" +
                                to_string(impl_->setting) + ")");
  validate(setting);
  impl_->setting = setting;
  impl_->select_kernel();
}
ClSpmv::~ClSpmv() = default;
std::size_t ClSpmv::device_bytes() const { return impl_->bytes; }
const ClSpmvSetting& ClSpmv::setting() const { return impl_->setting; }

void ClSpmv::apply(const ClVector& x, ClVector& y) const {
  const Impl& m = *impl_;
  if (m.rows == 0) return;
  const cl_long n = m.rows;
  const cl_mem xm = mem(x), ym = mem(y);
  switch (m.setting.format) {
    case ClSpmvFormat::Csr: {
      set_args(m.kernel, n, m.buffers[0], m.buffers[1], m.buffers[2], xm, ym);
      const std::size_t groups = (m.rows + m.setting.rows_per_group - 1) / m.setting.rows_per_group;
      m.device->launch(m.kernel, groups * m.setting.group_size, m.setting.group_size);
      break;
    }
    case ClSpmvFormat::Ell: {
      const cl_long width = m.width;
      set_args(m.kernel, n, width, m.buffers[0], m.buffers[1], xm, ym);
      m.device->launch(m.kernel, round_up(m.rows, m.setting.group_size), m.setting.group_size);
      break;
    }
    case ClSpmvFormat::Sell: {
      const cl_int height = m.height;
      set_args(m.kernel, n, height, m.buffers[0], m.buffers[1], m.buffers[2], m.buffers[3], xm, ym);
      m.device->launch(m.kernel, round_up(m.rows, m.setting.group_size), m.setting.group_size);
      break;
    }
  }
}

struct ClKrylovOps::Impl {
  ClSparseDevice::Impl* device = nullptr;
  cl_long n = 0;
  cl_mem partial = nullptr, out = nullptr;
  cl_kernel dot = nullptr, update = nullptr, direction = nullptr, axpby = nullptr, finish = nullptr;
  ~Impl() {
    if (partial) clReleaseMemObject(partial);
    if (out) clReleaseMemObject(out);
  }
  // Sums `count` runs of partials on the device and reads the `count` scalars back.
  void finish_sums(int count, double* result) {
    const cl_int groups = kGroups, c = count;
    set_args(finish, groups, c, partial, out);
    device->launch(finish, kGroup, kGroup);
    check(clEnqueueReadBuffer(device->queue, out, CL_TRUE, 0, count * sizeof(double), result, 0, nullptr, nullptr),
          "clEnqueueReadBuffer (sums)");
  }
};

ClKrylovOps::ClKrylovOps(const ClSparseDevice& device, std::int64_t n) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.device = &device.impl();
  m.n = n;
  m.partial = m.device->buffer(2 * kGroups * sizeof(double), nullptr);
  m.out = m.device->buffer(2 * sizeof(double), nullptr);
  const std::string defs = "-D GROUP=" + std::to_string(kGroup);
  m.dot = m.device->kernel("sparse_vector.cl", sparse_vector_cl, defs, "dot_partial");
  m.update = m.device->kernel("sparse_vector.cl", sparse_vector_cl, defs, "cg_update");
  m.direction = m.device->kernel("sparse_vector.cl", sparse_vector_cl, defs, "cg_direction");
  m.axpby = m.device->kernel("sparse_vector.cl", sparse_vector_cl, defs, "axpby");
  m.finish = m.device->kernel("sparse_vector.cl", sparse_vector_cl, defs, "finish_sums");
}
ClKrylovOps::~ClKrylovOps() = default;

double ClKrylovOps::dot(const ClVector& x, const ClVector& y) {
  Impl& m = *impl_;
  set_args(m.dot, m.n, mem(x), mem(y), m.partial);
  m.device->launch(m.dot, std::size_t(kGroups) * kGroup, kGroup);
  double s = 0;
  m.finish_sums(1, &s);
  return s;
}

std::pair<double, double> ClKrylovOps::cg_update(double alpha, const ClVector& p, const ClVector& q, ClVector& u,
                                                 ClVector& r, const ClVector* inv_diag) {
  Impl& m = *impl_;
  const cl_int has_diag = inv_diag ? 1 : 0;
  set_args(m.update, m.n, alpha, mem(p), mem(q), mem(u), mem(r), inv_diag ? mem(*inv_diag) : mem(r), has_diag,
           m.partial);
  m.device->launch(m.update, std::size_t(kGroups) * kGroup, kGroup);
  double sums[2];
  m.finish_sums(2, sums);
  return {sums[0], sums[1]};
}

void ClKrylovOps::cg_direction(double beta, const ClVector& r, const ClVector* inv_diag, ClVector& p) {
  Impl& m = *impl_;
  const cl_int has_diag = inv_diag ? 1 : 0;
  set_args(m.direction, m.n, beta, mem(r), inv_diag ? mem(*inv_diag) : mem(r), has_diag, mem(p));
  m.device->launch(m.direction, round_up(m.n, kGroup), kGroup);
}

void ClKrylovOps::axpby(double a, const ClVector& x, double b, ClVector& y) {
  Impl& m = *impl_;
  set_args(m.axpby, m.n, a, mem(x), b, mem(y));
  m.device->launch(m.axpby, round_up(m.n, kGroup), kGroup);
}

double time_spmv(const ClSparseDevice& device, const ClSpmv& spmv, const ClVector& x, ClVector& y, int repeats) {
  spmv.apply(x, y);
  check(clFinish(device.impl().queue), "clFinish");
  const Stopwatch watch;
  for (int i = 0; i < repeats; ++i) spmv.apply(x, y);
  check(clFinish(device.impl().queue), "clFinish");
  return watch.seconds() / repeats;
}

std::vector<SpmvCandidate> opencl_candidates() {
  std::vector<SpmvCandidate> c;
  // The paper's kernel streams at about 80 % of the copy ceiling (bench/results/2026-11-23-spmv-pcg.md).
  for (int team : {32, 16, 8, 4, 2, 1})
    c.push_back({to_string(ClSpmvSetting{ClSpmvFormat::Csr, 128, 128 / team}), SpmvLayout::Csr, team, 0.80});
  c.push_back({to_string(ClSpmvSetting{ClSpmvFormat::Sell, 128, 1}), SpmvLayout::Sell, 1, 0.80});
  c.push_back({to_string(ClSpmvSetting{ClSpmvFormat::Ell, 128, 1}), SpmvLayout::Ell, 1, 0.75});
  return c;
}

ClSpmvSetting model_cl_setting(const RowStats& stats) {
  for (const auto& ranked : rank_by_model(stats, opencl_candidates(), 1.0))
    if (ranked.candidate.layout == SpmvLayout::Csr) return parse_cl_spmv_setting(ranked.candidate.setting);
  return {};
}

ClTuning tune_cl_spmv(const ClSparseDevice& device, const CsrMatrix& a, SpmvTuning tuning) {
  ClTuning result;
  // The timer keeps the sample on the device in the last format it converted, for relaunches.
  std::unique_ptr<ClSpmv> on_device;
  const CsrMatrix* converted = nullptr;
  std::unique_ptr<ClVector> x, y;
  const SpmvTimer time = [&](const CsrMatrix& m, const std::string& text, int repeats) {
    const ClSpmvSetting setting = parse_cl_spmv_setting(text);
    if (converted != &m || !on_device || on_device->setting().format != setting.format) {
      on_device.reset();
      on_device = std::make_unique<ClSpmv>(device, m, setting);
      converted = &m;
    }
    on_device->relaunch(setting);
    if (!x || x->size() != static_cast<std::size_t>(m.rows)) {
      const std::vector<double> ones(static_cast<std::size_t>(m.rows), 1.0);
      x = std::make_unique<ClVector>(device, ones.size());
      y = std::make_unique<ClVector>(device, ones.size());
      x->upload(ones.data());
    }
    return time_spmv(device, *on_device, *x, *y, repeats);
  };
  SpmvAutotuneOptions options;
  options.tuning = tuning;
  options.device = device.identity();
  // As on CUDA: a quarter of the work-items its compute units hold (512 of 2048 on NVIDIA SMs).
  cl_uint units = 0;
  if (clGetDeviceInfo(device.impl().device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr) == CL_SUCCESS)
    options.saturating_threads = 512.0 * units;
  result.choice = autotune_spmv(a, opencl_candidates(), time, options);
  on_device.reset();
  const Stopwatch converting;
  result.matrix = make_in_chosen_setting(result.choice, [&](const std::string& setting) {
    return std::make_unique<ClSpmv>(device, a, parse_cl_spmv_setting(setting));
  });
  result.convert_seconds = converting.seconds();
  return result;
}

}  // namespace fem::kernels::opencl
