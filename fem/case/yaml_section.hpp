#pragma once
// A YAML mapping read the way every fem input file is read (case files, study files): unknown
// and repeated keys refused (yaml-cpp would keep the first silently), every number finite, and
// every problem a CaseError "file:line: message" (yaml-cpp marks are 0-based).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <initializer_list>
#include <string>
#include <vector>

#include "fem/case/case.hpp"

namespace fem {

class Section {
 public:
  Section(const std::filesystem::path& file, const YAML::Node& node, std::string where, std::initializer_list<const char*> keys)
      : file_(file), node_(node), where_(std::move(where)) {
    if (!node.IsMap()) fail(node, where_ + " must be a mapping of keys to values");
    std::map<std::string, int> seen;  // key -> its line
    for (const auto& kv : node) {
      if (!kv.first.IsScalar()) fail(kv.first, "a key in " + where_ + " must be a plain word");
      const auto key = kv.first.as<std::string>();
      const int key_line = kv.first.Mark().line + 1;
      if (const auto [it, inserted] = seen.emplace(key, key_line); !inserted)
        fail(kv.first, "'" + key + "' is given twice in " + where_ + " (" +
                           (it->second == key_line ? "both on line " + std::to_string(key_line)
                                                   : "lines " + std::to_string(it->second) + " and " + std::to_string(key_line)) +
                           "); keep one");
      if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
        std::string list;
        for (const char* k : keys) list += std::string(list.empty() ? "" : ", ") + k;
        fail(kv.first, "unknown key '" + key + "' in " + where_ + " (expected one of: " + list + ")");
      }
    }
  }

  bool has(const char* key) const { return static_cast<bool>(node_[key]); }
  // A key this mapping must hold: a CaseError at the mapping's line when it is missing.
  void require(const char* key, const std::string& message) const {
    if (!has(key)) fail(node_, message);
  }
  YAML::Node get(const char* key) const { return node_[key]; }
  int line() const { return node_.Mark().line + 1; }

  template <class T>
  T value(const char* key, const char* type_name) const {
    const YAML::Node n = node_[key];
    if (!n) fail(node_, where_ + " needs the key '" + key + "'");
    try {
      if (!n.IsScalar()) throw YAML::Exception(n.Mark(), "");
      return n.as<T>();
    } catch (const YAML::Exception&) {
      fail(n, "'" + std::string(key) + "' in " + where_ + " must be " + type_name);
    }
  }
  template <class T>
  T value_or(const char* key, const char* type_name, T fallback) const {
    return has(key) ? value<T>(key, type_name) : fallback;
  }
  double number(const char* key) const {
    const double v = value<double>(key, "a number");
    if (!std::isfinite(v)) fail(node_[key], "'" + std::string(key) + "' in " + where_ + " must be a finite number");
    return v;
  }
  double positive(const char* key) const {
    const double v = number(key);
    if (!(v > 0)) fail(node_[key], "'" + std::string(key) + "' in " + where_ + " must be positive");
    return v;
  }
  std::string text(const char* key) const { return value<std::string>(key, "a string"); }

  std::vector<double> numbers(const char* key, std::size_t min_size, std::size_t max_size) const {
    const YAML::Node n = node_[key];
    if (!n) fail(node_, where_ + " needs the key '" + key + "'");
    const auto bad = [&] {
      fail(n, "'" + std::string(key) + "' in " + where_ + " must be a list of " + std::to_string(min_size) +
                  (max_size > min_size ? " to " + std::to_string(max_size) : "") + " numbers");
    };
    if (!n.IsSequence() || n.size() < min_size || n.size() > max_size) bad();
    std::vector<double> out;
    try {
      for (const auto& item : n) out.push_back(item.as<double>());
    } catch (const YAML::Exception&) {
      bad();
    }
    if (!std::all_of(out.begin(), out.end(), [](double v) { return std::isfinite(v); }))
      fail(n, "'" + std::string(key) + "' in " + where_ + " must hold finite numbers");
    return out;
  }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const {
    throw CaseError(file_.string() + where_of(at) + ": " + message);
  }


 private:
  // ":line" of a node of the file. A key that is not there has no node: the mapping's own line
  // stands in. A node without a mark came from the command line (--set), not from the file.
  std::string where_of(const YAML::Node& at) const {
    for (const YAML::Node* n : {&at, &node_}) {
      try {
        if (!n->IsDefined()) continue;
        const YAML::Mark mark = n->Mark();
        return mark.is_null() ? " (--set)" : ":" + std::to_string(mark.line + 1);
      } catch (const YAML::InvalidNode&) {
      }
    }
    return ":1";
  }

  const std::filesystem::path& file_;
  YAML::Node node_;
  std::string where_;
};

}  // namespace fem
