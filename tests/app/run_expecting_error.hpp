#pragma once
// The message of a `fem run` that must fail: a test failure when it does not.
#include <doctest/doctest.h>

#include <exception>
#include <filesystem>
#include <sstream>
#include <string>

#include "fem/app/run_command.hpp"
#include "tests/app/app_test_support.hpp"

namespace fem::test {

inline std::string run_expecting_error(const std::filesystem::path& file) {
  std::ostringstream log;
  try {
    run_case(file, {}, log);
  } catch (const std::exception& e) {
    return e.what();
  }
  FAIL("the run should have failed");
  return "";
}

// The same for a case given as text (written to a scratch folder as case.yaml).
inline std::string run_expecting_error_of_text(const std::string& text) {
  TempDir dir;
  return run_expecting_error(dir.write("case.yaml", text));
}

}  // namespace fem::test
