#pragma once
// A YAML mapping read the way every fem input file is read (case files, study files): unknown
// keys refused, and every problem a CaseError "file:line: message" (yaml-cpp marks are 0-based).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
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
    for (const auto& kv : node) {
      const auto key = kv.first.as<std::string>();
      if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
        std::string list;
        for (const char* k : keys) list += std::string(list.empty() ? "" : ", ") + k;
        fail(kv.first, "unknown key '" + key + "' in " + where_ + " (expected one of: " + list + ")");
      }
    }
  }

  bool has(const char* key) const { return static_cast<bool>(node_[key]); }
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
  double number(const char* key) const { return value<double>(key, "a number"); }
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
    return out;
  }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const {
    // A node without a mark came from the command line (--set), not from a line of the file.
    const std::string where = at.Mark().is_null() ? " (--set)" : ":" + std::to_string(at.Mark().line + 1);
    throw CaseError(file_.string() + where + ": " + message);
  }

 private:
  const std::filesystem::path& file_;
  YAML::Node node_;
  std::string where_;
};

}  // namespace fem
