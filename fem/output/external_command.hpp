#pragma once
// Running the helper programs fem hands pictures to (python3 with matplotlib, ParaView's
// pvbatch) through the shell, with their output kept for the error message.
#include <string>
#include <vector>

namespace fem {

// 'text' for /bin/sh, whatever characters it holds.
std::string shell_quoted(const std::string& text);

// True when `program` is on PATH (or is an executable path).
bool on_path(const std::string& program);

// Runs `command` (a shell command line) with stdout and stderr captured; throws
// std::runtime_error "<what> failed:\n<output>" when it exits non-zero.
void run_command(const std::string& command, const std::string& what);

// The standard output of `command` with trailing newlines removed; empty when it fails.
std::string command_output(const std::string& command);

// The first interpreter that can `import module`: $FEM_PYTHON if set, python3 on PATH, then
// Debian's own /usr/bin/python3 (a pyenv or venv python3 may lack the Debian packages).
// Throws std::runtime_error starting with `what` and naming `debian_package` when none can.
std::string python_with_module(const std::string& module, const std::string& what, const std::string& debian_package);

}  // namespace fem
