#include "fem/study/environment.hpp"

#include <omp.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "fem/config.hpp"
#include "fem/mesh/gmsh_version.hpp"
#include "fem/output/vtk_version.hpp"
#include "fem/output/external_command.hpp"
#include "kernels/device_queries.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/solver_table.hpp"

namespace fem::study {
namespace {

using nlohmann::json;

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown";
}

// nvidia-smi's view of every GPU: name, driver, memory.
json nvidia_gpus() {
  json gpus = json::array();
  std::istringstream lines(command_output("nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader"));
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream parts(line);
    for (std::string f; std::getline(parts, f, ',');) fields.push_back(f.substr(f.find_first_not_of(' ')));
    if (fields.size() == 3) gpus.push_back({{"name", fields[0]}, {"driver", fields[1]}, {"memory", fields[2]}});
  }
  return gpus;
}

// The device fem's OpenCL solvers pick: the first GPU of any platform, else the first device.
json opencl_device() {
  const auto device = kernels::opencl_device_description();
  if (!device) return nullptr;
  return {{"platform", device->platform}, {"device", device->device}, {"driver", device->driver}};
}

json libraries() {
  json lib;
  lib["compiler"] = __VERSION__;
  lib["openmp"] = _OPENMP;
  lib["nlohmann_json"] = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) +
                         "." + std::to_string(NLOHMANN_JSON_VERSION_PATCH);
  if (const auto vtk = vtk_version()) lib["vtk"] = *vtk;
  if (const auto gmsh = gmsh_version()) lib["gmsh"] = *gmsh;
  if (const std::string cuda = kernels::cuda_runtime_version(); !cuda.empty()) lib["cuda_runtime"] = cuda;
  for (const auto& [name, version] : solver_libraries()) lib[name] = version;
  return lib;
}

// The commit the binary was built from: asked of git at run time when the source tree is a
// checkout (with "dirty" when tracked files differ), else what CMake saw at configure time.
json git_commit() {
  const std::string repo = shell_quoted(FEM_SOURCE_DIR);
  const std::string head = command_output("git -C " + repo + " rev-parse HEAD");
  if (!head.empty()) {
    const bool dirty = !command_output("git -C " + repo + " status --porcelain --untracked-files=no").empty();
    return {{"commit", head}, {"dirty", dirty}, {"source", "git at run time"}};
  }
  return {{"commit", FEM_GIT_COMMIT}, {"dirty", nullptr}, {"source", "CMake at configure time"}};
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

}  // namespace

json load_average() {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) != 3) return nullptr;
  return {load[0], load[1], load[2]};
}

json study_environment() {
  json env;
  env["date"] = utc_now();
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  env["host"] = host;
  utsname os{};
  uname(&os);
  env["os"] = std::string(os.sysname) + " " + os.release;
  env["cpu"] = cpu_model();
  env["hardware_threads"] = std::thread::hardware_concurrency();
  env["threads_used"] = omp_get_max_threads();
  env["load_average"] = load_average();
  env["gpus"] = nvidia_gpus();
  env["opencl_device"] = opencl_device();
  env["fem_version"] = FEM_VERSION;
  env["build"] = {{"gmsh", bool(FEM_WITH_GMSH)}, {"vtk", bool(FEM_WITH_VTK)}, {"cuda", bool(FEM_WITH_CUDA)},
                  {"opencl", bool(FEM_WITH_OPENCL)}, {"petsc", bool(FEM_WITH_PETSC)}};
  env["solvers_built"] = available_solvers();
  env["libraries"] = libraries();
  env["git"] = git_commit();
  return env;
}

}  // namespace fem::study
