#include "fem/case/yaml_aliases.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <sstream>
#include <vector>

#include "fem/case/case.hpp"

namespace fem {
namespace {

// Follows the parser's events: the anchors of the collections open at each point, and the
// first alias that names one of them (or any alias, when none are allowed).
class AliasFinder final : public YAML::EventHandler {
 public:
  explicit AliasFinder(bool any_alias) : any_alias_(any_alias) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (found_) return;
    bool open = false;
    for (YAML::anchor_t a : open_) open = open || a == anchor;
    if (any_alias_ || open) {
      found_ = true;
      line_ = mark.line + 1;
      cycle_ = open;
    }
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open_.push_back(anchor);
  }
  void OnSequenceEnd() override { open_.pop_back(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open_.push_back(anchor);
  }
  void OnMapEnd() override { open_.pop_back(); }

  bool found() const { return found_; }
  bool cycle() const { return cycle_; }
  int line() const { return line_; }

 private:
  bool any_alias_;
  std::vector<YAML::anchor_t> open_;  // 0: a collection without an anchor
  bool found_ = false, cycle_ = false;
  int line_ = 0;
};

// Runs the parser over every document of `text`; syntax errors are left to YAML::Load, which
// reports them with the file's context.
constexpr int kDocumentsLookedAt = 16;

AliasFinder find_alias(const std::string& text, bool any_alias) {
  AliasFinder finder(any_alias);
  std::istringstream in(text);
  try {
    YAML::Parser parser(in);
    // yaml-cpp can report empty documents without end on some malformed text (a stray ',' or ')'
    // in a flow mapping): a case file is one document, so a few are plenty to look through; the
    // reader that follows refuses the malformed text with its line.
    for (int documents = 0; documents < kDocumentsLookedAt && !finder.found() && parser.HandleNextDocument(finder); ++documents) {
    }
  } catch (const YAML::Exception&) {
  }
  return finder;
}

}  // namespace

void refuse_alias_cycles(const std::string& text, const std::string& where) {
  const AliasFinder finder = find_alias(text, false);
  if (finder.found())
    throw CaseError(where + ":" + std::to_string(finder.line()) +
                    ": an alias (*name) inside the very mapping or list its anchor (&name) names: the value would contain "
                    "itself without end");
}

void refuse_aliases(const std::string& text, const std::string& where) {
  const AliasFinder finder = find_alias(text, true);
  if (finder.found())
    throw CaseError(where + ": " +
                    (finder.cycle() ? "an alias (*name) inside the value its anchor (&name) names: it would contain itself"
                                    : "anchors and aliases (&name, *name) are not accepted here") +
                    "; write the value out");
}

}  // namespace fem
