#include "fem/output/external_command.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>

namespace fem {

namespace fs = std::filesystem;

std::string shell_quoted(const std::string& s) {
  std::string quoted = "'";
  for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

bool on_path(const std::string& program) {
  return std::system(("command -v " + shell_quoted(program) + " >/dev/null 2>&1").c_str()) == 0;
}

void run_command(const std::string& command, const std::string& what) {
  const fs::path log = fs::temp_directory_path() / ("fem-command-" + std::to_string(std::random_device{}()) + ".log");
  const int status = std::system((command + " >" + shell_quoted(log.string()) + " 2>&1").c_str());
  std::ifstream in(log);
  const std::string output((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::error_code ignored;
  fs::remove(log, ignored);
  if (status != 0) throw std::runtime_error(what + " failed:\n" + output);
}

std::string command_output(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (!pipe) return "";
  std::string output;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  if (::pclose(pipe) != 0) return "";
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return output;
}

std::string python_with_module(const std::string& module, const std::string& what, const std::string& debian_package) {
  std::vector<std::string> candidates{"python3", "/usr/bin/python3"};
  if (const char* chosen = std::getenv("FEM_PYTHON")) candidates.insert(candidates.begin(), chosen);
  bool any_python = false;
  for (const std::string& python : candidates) {
    if (!on_path(python)) continue;
    any_python = true;
    if (std::system((shell_quoted(python) + " -c " + shell_quoted("import " + module) + " >/dev/null 2>&1").c_str()) == 0)
      return python;
  }
  if (!any_python) throw std::runtime_error(what + ": no python3 found (Debian: apt-get install " + debian_package + ")");
  throw std::runtime_error(what + ": no python3 here can import " + module +
                           " (tried $FEM_PYTHON, python3, /usr/bin/python3; Debian: apt-get install " + debian_package + ")");
}

}  // namespace fem
