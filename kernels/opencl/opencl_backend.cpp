#include "kernels/opencl/opencl_backend.hpp"

#include "kernels/opencl/dense_sources.hpp"  // generated: the .cl files as strings

#include "kernels/opencl/cl_device.hpp"
#include "kernels/typed_dense_backend.hpp"

#include <vector>

namespace fem::kernels::opencl {

namespace {

constexpr int max_tile = 64;        // diagonal tile of POTRF/TRSM
constexpr int per_item = 4;         // WPT: elements per work-item and direction in the tiled GEMM
constexpr int potrf_group = 256;
constexpr int trsm_group = 64;

class ClStorage final : public DeviceStorage {
public:
  ClStorage(const DenseBackend* owner, cl_context context, cl_command_queue queue, std::size_t bytes)
      : DeviceStorage(owner, bytes) {
    cl_int status = CL_SUCCESS;
    buffer_ = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
    check(status, "clCreateBuffer");
    const unsigned char zero = 0;
    check(clEnqueueFillBuffer(queue, buffer_, &zero, 1, 0, bytes, 0, nullptr, nullptr),
          "clEnqueueFillBuffer");
  }
  ~ClStorage() override { clReleaseMemObject(buffer_); }
  void* handle() const override { return buffer_; }

private:
  cl_mem buffer_ = nullptr;
};

// The kernels of one precision, built once.
struct Program {
  cl_program program = nullptr;
  cl_kernel gemm_naive = nullptr, gemm_tiled = nullptr, potrf = nullptr, trsm = nullptr,
            front_assemble = nullptr;
};

template <class T>
cl_mem buffer(const DeviceMatrix<T>& m) {
  return static_cast<cl_mem>(m.storage->handle());
}

// Sets the arguments of a kernel in order.
template <class... Args>
void set_args(cl_kernel kernel, const Args&... args) {
  cl_uint index = 0;
  (check(clSetKernelArg(kernel, index++, sizeof(Args), &args), "clSetKernelArg"), ...);
}

class OpenCLBackend final : public TypedDenseBackend<OpenCLBackend> {
public:
  OpenCLBackend(GemmKernel kernel, int tile) : kernel_(kernel), tile_(tile) {
    if (tile < 1 || tile * tile > 1024)
      throw std::invalid_argument("OpenCL back-end: tile " + std::to_string(tile) +
                                  " must be between 1 and 32");
    std::string why_not;
    device_ = pick_device(why_not);
    if (!device_) throw BackendUnavailable(why_not);
    cl_int status = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    queue_ = clCreateCommandQueue(context_, device_, 0, &status);
    check(status, "clCreateCommandQueue");
    info_ = clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &status);
    check(status, "clCreateBuffer");
    device_name_ = device_string(device_, CL_DEVICE_NAME) + " (" +
                   device_string(device_, CL_DEVICE_VERSION) + ")";
    has_double_ = device_string(device_, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") != std::string::npos;
  }
  ~OpenCLBackend() override {
    for (Program* p : {&double_, &float_}) {
      for (cl_kernel k : {p->gemm_naive, p->gemm_tiled, p->potrf, p->trsm, p->front_assemble})
        if (k) clReleaseKernel(k);
      if (p->program) clReleaseProgram(p->program);
    }
    if (indices_) clReleaseMemObject(indices_);
    clReleaseMemObject(info_);
    clReleaseCommandQueue(queue_);
    clReleaseContext(context_);
  }

  std::string name() const override { return kernel_ == GemmKernel::naive ? "opencl-naive" : "opencl"; }
  std::string description() const override {
    return device_name_ + (kernel_ == GemmKernel::naive
                               ? ", naive GEMM"
                               : ", tiled GEMM (tile " + std::to_string(tile_) + ", " +
                                     std::to_string(per_item) + "x" + std::to_string(per_item) +
                                     " per work-item)");
  }
  bool uses_host_memory() const override { return false; }
  void synchronize() override { check(clFinish(queue_), "clFinish"); }

protected:
  std::shared_ptr<DeviceStorage> allocate_bytes(std::size_t bytes) override {
    return std::make_shared<ClStorage>(this, context_, queue_, bytes);
  }
  void copy_to_device(const void* host, std::size_t host_pitch, DeviceStorage& dst,
                      std::size_t dst_offset, std::size_t dst_pitch, std::size_t row_bytes,
                      std::size_t rows) override {
    copy_rect(clEnqueueWriteBufferRect, "clEnqueueWriteBufferRect", static_cast<cl_mem>(dst.handle()), dst_offset,
              dst_pitch, host, host_pitch, row_bytes, rows);
  }
  void copy_to_host(const DeviceStorage& src, std::size_t src_offset, std::size_t src_pitch,
                    void* host, std::size_t host_pitch, std::size_t row_bytes,
                    std::size_t rows) override {
    copy_rect(clEnqueueReadBufferRect, "clEnqueueReadBufferRect", static_cast<cl_mem>(src.handle()), src_offset,
              src_pitch, host, host_pitch, row_bytes, rows);
  }

  index_t tile_size() const override { return max_tile; }

  void front_assemble_kernel(const DeviceMatrix<double>& from,
                             const std::int32_t* from_index,
                             const DeviceMatrix<double>& batch,
                             const std::int32_t* batch_index,
                             const DeviceMatrix<double>& to) override {
    Program& p = program<double>();
    const cl_int n = static_cast<cl_int>(to.rows);
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(cl_int);
    if (2 * bytes > index_bytes_) {
      // Released buffers stay alive until the kernels queued on them have run.
      if (indices_) clReleaseMemObject(indices_);
      cl_int status = CL_SUCCESS;
      index_bytes_ = 2 * bytes;
      indices_ = clCreateBuffer(context_, CL_MEM_READ_ONLY, index_bytes_, nullptr, &status);
      check(status, "clCreateBuffer");
    }
    check(clEnqueueWriteBuffer(queue_, indices_, CL_TRUE, 0, bytes, from_index, 0, nullptr,
                               nullptr),
          "writing the front indices");
    check(clEnqueueWriteBuffer(queue_, indices_, CL_TRUE, bytes, bytes, batch_index, 0,
                               nullptr, nullptr),
          "writing the batch indices");
    set_args(p.front_assemble, buffer(from), cl_long{from.offset}, cl_long{from.ld},
             buffer(batch), cl_long{batch.offset}, cl_long{batch.ld}, indices_, buffer(to),
             cl_long{to.offset}, cl_long{to.ld}, n);
    constexpr int side = 16;
    launch(p.front_assemble, round_up(n, side), round_up(n, side), side, side, 2);
  }

private:
  friend class TypedDenseBackend<OpenCLBackend>;

  // A blocking copy of `rows` rows of `row_bytes` between `buffer` (from byte `offset`) and host
  // memory; `enqueue` is clEnqueueWriteBufferRect or clEnqueueReadBufferRect.
  template <class Enqueue, class HostPointer>
  void copy_rect(Enqueue enqueue, const char* what, cl_mem buffer, std::size_t offset, std::size_t buffer_pitch,
                 HostPointer host, std::size_t host_pitch, std::size_t row_bytes, std::size_t rows) {
    const std::size_t buffer_origin[3] = {offset, 0, 0};
    const std::size_t host_origin[3] = {0, 0, 0};
    const std::size_t region[3] = {row_bytes, rows, 1};
    check(enqueue(queue_, buffer, CL_TRUE, buffer_origin, host_origin, region, buffer_pitch, 0, host_pitch, 0, host, 0,
                  nullptr, nullptr),
          what);
  }

  template <class T>
  Program& program() {
    constexpr bool is_double = std::is_same_v<T, double>;
    Program& p = is_double ? double_ : float_;
    if (p.program) return p;
    if (is_double && !has_double_)
      throw BackendUnavailable("OpenCL device " + device_name_ + " has no double precision (cl_khr_fp64)");
    const std::string source =
        std::string(dense_gemm_cl) + "\n" + dense_tiles_cl + "\n" + front_assemble_cl;
    const char* text = source.c_str();
    cl_int status = CL_SUCCESS;
    p.program = clCreateProgramWithSource(context_, 1, &text, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    const std::string options = std::string(is_double ? "-DREAL=double -DREAL_IS_DOUBLE" : "-DREAL=float") +
                                " -DTILE=" + std::to_string(tile_) + " -DWPT=" + std::to_string(per_item) +
                                " -DMAX_TILE=" + std::to_string(max_tile);
    if (clBuildProgram(p.program, 1, &device_, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      std::size_t size = 0;
      clGetProgramBuildInfo(p.program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      clGetProgramBuildInfo(p.program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      throw std::runtime_error("OpenCL: building the dense kernels (" + options + ") failed:\n" + log);
    }
    const auto kernel = [&](const char* name) {
      cl_kernel k = clCreateKernel(p.program, name, &status);
      check(status, name);
      return k;
    };
    p.gemm_naive = kernel("gemm_naive");
    p.gemm_tiled = kernel("gemm_tiled");
    p.potrf = kernel("potrf_tile");
    p.trsm = kernel("trsm_tile");
    p.front_assemble = kernel("front_assemble");
    return p;
  }

  void launch(cl_kernel kernel, std::size_t global0, std::size_t global1, std::size_t local0,
              std::size_t local1, cl_uint dims) {
    const std::size_t global[2] = {global0, global1};
    const std::size_t local[2] = {local0, local1};
    check(clEnqueueNDRangeKernel(queue_, kernel, dims, nullptr, global, local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
  }

  static std::size_t round_up(index_t v, index_t to) { return static_cast<std::size_t>((v + to - 1) / to * to); }

  template <class T>
  void gemm_any(Op op_a, Op op_b, T alpha, const DeviceMatrix<T>& a, const DeviceMatrix<T>& b,
                T beta, const DeviceMatrix<T>& c, Fill fill) {
    Program& p = program<T>();
    const cl_int m = static_cast<cl_int>(c.rows), n = static_cast<cl_int>(c.cols);
    const cl_int k = static_cast<cl_int>(a.cols_of(op_a));
    const cl_long a_rs = op_a == Op::none ? a.ld : 1, a_cs = op_a == Op::none ? 1 : a.ld;
    const cl_long b_rs = op_b == Op::none ? b.ld : 1, b_cs = op_b == Op::none ? 1 : b.ld;
    const cl_int lower = fill == Fill::lower;
    const bool tiled = kernel_ == GemmKernel::tiled;
    cl_kernel kernel = tiled ? p.gemm_tiled : p.gemm_naive;
    set_args(kernel, m, n, k, alpha, buffer(a), cl_long{a.offset}, a_rs, a_cs, buffer(b),
             cl_long{b.offset}, b_rs, b_cs, beta, buffer(c), cl_long{c.offset}, cl_long{c.ld}, lower);
    const index_t per_group = tiled ? index_t{tile_} * per_item : tile_;
    launch(kernel, round_up(n, per_group) / per_group * tile_, round_up(m, per_group) / per_group * tile_,
           tile_, tile_, 2);
  }

  template <class T>
  index_t potrf_any(const DeviceMatrix<T>& a) {
    Program& p = program<T>();
    set_args(p.potrf, buffer(a), cl_long{a.offset}, cl_long{a.ld}, static_cast<cl_int>(a.rows), info_);
    launch(p.potrf, potrf_group, 1, potrf_group, 1, 1);
    cl_int info = -1;
    check(clEnqueueReadBuffer(queue_, info_, CL_TRUE, 0, sizeof(cl_int), &info, 0, nullptr, nullptr),
          "reading the pivot check");
    return info;
  }

  // As the reference: the right-hand solve is the left one on Bᵀ with op(L)ᵀ.
  template <class T>
  void trsm_any(Side side, Op op_l, const DeviceMatrix<T>& l, const DeviceMatrix<T>& b) {
    Program& p = program<T>();
    const bool right = side == Side::right;
    const Op op = right ? (op_l == Op::none ? Op::transpose : Op::none) : op_l;
    const cl_long l_rs = op == Op::none ? l.ld : 1, l_cs = op == Op::none ? 1 : l.ld;
    const cl_long b_rs = right ? 1 : b.ld, b_cs = right ? b.ld : 1;
    const cl_int rhs = static_cast<cl_int>(right ? b.rows : b.cols);
    set_args(p.trsm, buffer(l), cl_long{l.offset}, l_rs, l_cs, cl_int{op == Op::none},
             static_cast<cl_int>(l.rows), buffer(b), cl_long{b.offset}, b_rs, b_cs, rhs);
    launch(p.trsm, round_up(rhs, trsm_group), 1, trsm_group, 1, 1);
  }

  GemmKernel kernel_;
  int tile_;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_mem info_ = nullptr;
  cl_mem indices_ = nullptr;  // front_assemble's index lists
  std::size_t index_bytes_ = 0;
  std::string device_name_;
  bool has_double_ = false;
  Program double_, float_;
};

}  // namespace

std::string unavailable_reason() {
  std::string why_not;
  return pick_device(why_not) ? std::string() : why_not;
}

std::unique_ptr<DenseBackend> make_backend(GemmKernel kernel, int tile) {
  return std::make_unique<OpenCLBackend>(kernel, tile);
}

}  // namespace fem::kernels::opencl
