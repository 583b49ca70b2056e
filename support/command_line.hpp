#pragma once
// What every command line of ours shares through CLI11 (fem and each benchmark): a check made
// from a parser that throws, and the run of a command with one set of exit codes.
#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace fem {

// A CLI11 check from a parser that throws std::invalid_argument with the message to show.
template <class Parse>
CLI::Validator checked_by(Parse parse, const std::string& description) {
  return CLI::Validator(
      [parse](std::string& text) {
        try {
          parse(text);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      },
      description);
}

// Finite numbers above zero, or at least zero, with a message that names the rule (CLI11's own
// checks name the whole range of a double, and let NaN through).
CLI::Validator positive_number();
CLI::Validator non_negative_number();

// Parses argv (argv[0]: the command's name) into `options`, then runs `body`. Returns the exit
// code: 0 when done, and after --help, which prints the options; 2 for a bad option or value,
// named on stderr; 1 when `body` throws, with its message on stderr.
int run_command(CLI::App& options, int argc, char** argv, const std::function<void()>& body);

}  // namespace fem
