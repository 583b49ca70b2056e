#include "fem/pipeline/progress_line.hpp"

#include <unistd.h>

#include <iostream>

#include "support/launched_ranks.hpp"

namespace fem {
namespace {

bool is_terminal(const std::ostream& out) {
  if (launched_ranks() > 1) return false;  // a launcher's pseudo-terminal: the output goes to its log
  if (&out == &std::cout) return ::isatty(STDOUT_FILENO) == 1;
  if (&out == &std::cerr) return ::isatty(STDERR_FILENO) == 1;
  return false;
}

}  // namespace

ProgressLine::ProgressLine(std::ostream& out) : ProgressLine(out, is_terminal(out)) {}

void ProgressLine::show(const std::string& text) {
  if (!terminal_) {
    out_ << text << "\n" << std::flush;
    return;
  }
  out_ << "\r\033[K" << text << std::flush;  // back to the start of the line, erase it, write
  shown_ = true;
}

void ProgressLine::clear() {
  if (!shown_) return;
  out_ << "\r\033[K" << std::flush;
  shown_ = false;
}

}  // namespace fem
