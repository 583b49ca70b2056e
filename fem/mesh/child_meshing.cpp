#include "fem/mesh/child_meshing.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "support/stopwatch.hpp"
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace fem {
namespace {

namespace fs = std::filesystem;

// Records on the pipe: a kind, the payload's length, the payload.
enum class Record : char { Step = 'S', Estimate = 'E', Mesh = 'M', Failure = 'F' };

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);  // the watcher is gone
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void send(int fd, Record kind, const std::string& payload) {
  const std::uint64_t length = payload.size();
  char head[1 + sizeof length];
  head[0] = static_cast<char>(kind);
  std::memcpy(head + 1, &length, sizeof length);
  write_all(fd, head, sizeof head);
  write_all(fd, payload.data(), payload.size());
}

// The mesh as bytes and back (the child and the watcher are one program: same layout).
class Writer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  template <class T>
  void put(const std::vector<T>& values) {
    put<std::uint64_t>(values.size());
    out_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  }
  void put(const std::string& text) {
    put<std::uint64_t>(text.size());
    out_ += text;
  }
  void put(const ElementSet& set) {
    put(set.type);
    put(set.offset);
    put(set.node);
    put(set.tag);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const char* data, std::size_t size) : at_(data), end_(data + size) {}
  template <class T>
  void get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    take(&value, sizeof value);
  }
  template <class T>
  void get(std::vector<T>& values) {
    std::uint64_t n = 0;
    get(n);
    if (n > static_cast<std::uint64_t>(end_ - at_) / sizeof(T)) cut();
    values.resize(n);
    take(values.data(), n * sizeof(T));
  }
  void get(std::string& text) {
    std::uint64_t n = 0;
    get(n);
    if (n > static_cast<std::uint64_t>(end_ - at_)) cut();
    text.assign(at_, n);
    at_ += n;
  }
  void get(ElementSet& set) {
    get(set.type);
    get(set.offset);
    get(set.node);
    get(set.tag);
  }

 private:
  [[noreturn]] static void cut() { throw std::runtime_error("the mesh from the meshing process is cut short"); }
  void take(void* to, std::size_t n) {
    if (n > static_cast<std::size_t>(end_ - at_)) cut();
    if (n == 0) return;  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(to, at_, n);
    at_ += n;
  }
  const char* at_;
  const char* end_;
};

std::string mesh_bytes(const Mesh& mesh) {
  Writer w;
  w.put(mesh.dimension);
  w.put(mesh.coords);
  w.put(mesh.cells);
  w.put(mesh.boundary);
  w.put<std::uint64_t>(mesh.groups.size());
  for (const auto& g : mesh.groups) {
    w.put(g.name);
    w.put(g.dimension);
    w.put(g.elements);
  }
  w.put(mesh.source);
  return w.take();
}

Mesh mesh_from_bytes(const char* data, std::size_t size) {
  Reader r(data, size);
  Mesh mesh;
  r.get(mesh.dimension);
  r.get(mesh.coords);
  r.get(mesh.cells);
  r.get(mesh.boundary);
  std::uint64_t groups = 0;
  r.get(groups);
  for (std::uint64_t i = 0; i < groups; ++i) {
    PhysicalGroup g;
    r.get(g.name);
    r.get(g.dimension);
    r.get(g.elements);
    mesh.groups.push_back(std::move(g));
  }
  r.get(mesh.source);
  return mesh;
}

[[noreturn]] void run_child(int fd, const std::function<Mesh(const MeshingProgress&)>& make, pid_t watcher) {
  // Ends with the watcher, whatever ends it; _exit: the watcher's exit handlers and buffers are not ours.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != watcher) _exit(4);
  // The watcher's handlers clean up the watcher's files: the child just ends.
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGXFSZ}) ::signal(sig, SIG_DFL);
#if defined(_OPENMP)
  // The watcher's OpenMP threads are not in the child: a team of more than one would wait for them.
  omp_set_num_threads(1);
#endif
  int code = 0;
  try {
    send(fd, Record::Mesh, mesh_bytes(make(MeshingProgress(fd))));
  } catch (const std::exception& e) {
    send(fd, Record::Failure, e.what());
    code = 1;
  } catch (...) {
    send(fd, Record::Failure, "meshing failed with an error that is not a C++ exception");
    code = 1;
  }
  std::cout.flush();
  std::cerr.flush();
  _exit(code);
}

// The child's resident memory in bytes (0 once it is gone).
std::size_t resident_bytes(pid_t pid) {
  std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
  std::size_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

std::string gib(double bytes) {
  std::ostringstream text;
  text.precision(3);
  text << bytes / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return text.str();
}

// Why the cells can outgrow the budget, for the messages.
std::string likely_cause(const std::optional<GeoMeshEstimate>& estimate) {
  std::ostringstream text;
  text.precision(3);
  if (estimate)
    text << "its cells were estimated at " << static_cast<double>(estimate->cells) << " (element size " << estimate->element_size
         << ", from the mesh of its boundary), but sizes set inside the geometry (a Field, Mesh.MeshSize* options) can make far "
            "more";
  else
    text << "a loop (For) or macro (Call) that does not end, or sizes the .geo sets (a point's size, Mesh.MeshSize* options, a "
            "Field) far smaller than its geometry";
  return text.str();
}

}  // namespace

void MeshingProgress::step(const std::string& name) const { send(fd_, Record::Step, name); }

void MeshingProgress::estimated(const GeoMeshEstimate& estimate) const {
  Writer w;
  w.put(estimate);
  send(fd_, Record::Estimate, w.take());
}

Mesh mesh_in_child(const fs::path& file, const MeshingBudget& budget, const std::function<void(const GeoMeshEstimate&)>& check,
                   const std::function<Mesh(const MeshingProgress&)>& make) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(file.string() + ": cannot make a pipe for the meshing process");
  std::cout.flush();  // or the child would write this process's buffered output again
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t watcher = ::getpid();
  // The child starts with this process's pages mapped (shared until written): its own memory is
  // what it holds beyond them.
  const std::size_t inherited = resident_bytes(watcher);
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw std::runtime_error(file.string() + ": cannot start the meshing process: " + std::strerror(errno));
  }
  if (child == 0) {
    ::close(pipe_fds[0]);
    run_child(pipe_fds[1], make, watcher);
  }
  ::close(pipe_fds[1]);
  const int fd = pipe_fds[0];

  const Stopwatch clock;
  std::string received, step = "reading the file", failure, stopped;
  std::size_t parsed = 0;
  std::optional<GeoMeshEstimate> estimate;
  std::optional<Mesh> mesh;
  double seconds = budget.seconds;
  for (bool open = true;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) > 0) {
      char chunk[1 << 16];
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n > 0) received.append(chunk, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) open = false;
    }
    // Every whole record received so far.
    std::uint64_t length = 0;
    while (received.size() - parsed >= 1 + sizeof length) {
      std::memcpy(&length, received.data() + parsed + 1, sizeof length);
      if (received.size() - parsed - 1 - sizeof length < length) break;
      const auto kind = static_cast<Record>(received[parsed]);
      const char* payload = received.data() + parsed + 1 + sizeof length;
      if (kind == Record::Step) step.assign(payload, length);
      if (kind == Record::Failure) failure.assign(payload, length);
      if (kind == Record::Mesh) mesh = mesh_from_bytes(payload, length);
      if (kind == Record::Estimate) {
        GeoMeshEstimate e;
        Reader(payload, length).get(e);
        estimate = e;
        seconds = budget.seconds + budget.seconds_per_cell * static_cast<double>(e.cells);
        try {
          if (check) check(e);
        } catch (...) {
          ::kill(child, SIGKILL);
          ::close(fd);
          while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
          }
          throw;
        }
      }
      parsed += 1 + sizeof length + length;
    }
    if (parsed == received.size()) {
      received.clear();
      parsed = 0;
    }
    if (!open) break;
    const std::size_t resident = resident_bytes(child);
    const std::size_t held = resident > inherited ? resident - inherited : 0;
    std::ostringstream why;
    why.precision(3);
    if (clock.seconds() > seconds)
      why << "Gmsh was stopped after " << clock.seconds() << " s while " << step << ", the time this file is given (" << seconds
          << " s; mesh.time_limit gives more)";
    else if (held > budget.bytes)
      why << "Gmsh was stopped at " << gib(static_cast<double>(held)) << " while " << step << ", the memory available to it ("
          << gib(static_cast<double>(budget.bytes)) << ")";
    stopped = why.str();
    if (!stopped.empty()) {
      ::kill(child, SIGKILL);
      break;
    }
  }
  ::close(fd);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!stopped.empty()) throw std::runtime_error(file.string() + ": " + stopped + ": " + likely_cause(estimate));
  if (!failure.empty()) throw std::runtime_error(failure);
  if (WIFSIGNALED(status))
    throw std::runtime_error(file.string() + ": Gmsh ended with signal " + std::to_string(WTERMSIG(status)) + " (" +
                             strsignal(WTERMSIG(status)) + ") while " + step + ": this file crashes Gmsh (fem itself goes on)");
  if (!mesh) throw std::runtime_error(file.string() + ": the meshing process ended (status " + std::to_string(WEXITSTATUS(status)) +
                                      ") while " + step + " without a mesh");
  return std::move(*mesh);
}

}  // namespace fem
