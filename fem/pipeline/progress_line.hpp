#pragma once
// Where progress lines go: on a terminal one line that rewrites itself in place; into a file or
// a pipe, plain lines, so that logs keep every one.
#include <iosfwd>
#include <string>

namespace fem {

class ProgressLine {
 public:
  // A terminal when `out` is std::cout or std::cerr and that stream's descriptor is a TTY, and no
  // launcher started this process among several.
  explicit ProgressLine(std::ostream& out);
  ProgressLine(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}

  void show(const std::string& text);
  // Before an ordinary line: removes the line shown in place (nothing when not a terminal).
  void clear();

 private:
  std::ostream& out_;
  bool terminal_;
  bool shown_ = false;
};

}  // namespace fem
