#include "fem/case/case_settings.hpp"

#include <yaml-cpp/yaml.h>

#include <stdexcept>

#include "fem/case/case.hpp"

namespace fem {
namespace {

// A copy of a parsed value without its marks, so that a message about it does not point at a
// line of the case file.
YAML::Node without_marks(const YAML::Node& parsed) {
  if (parsed.IsScalar()) return YAML::Node(parsed.Scalar());
  YAML::Node copy;
  if (parsed.IsSequence())
    for (const auto& item : parsed) copy.push_back(without_marks(item));
  else if (parsed.IsMap())
    for (const auto& kv : parsed) copy[kv.first.Scalar()] = without_marks(kv.second);
  return copy;
}

bool is_index(const std::string& part) {
  return !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::pair<std::vector<std::string>, std::string> parse_case_setting(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw std::invalid_argument("'" + text + "': a setting is written key.path=value, e.g. mesh.size=0.01");
  std::vector<std::string> path;
  const std::string key = text.substr(0, equals);
  std::size_t begin = 0;
  while (begin <= key.size()) {
    const auto end = std::min(key.find('.', begin), key.size());
    if (end == begin) throw std::invalid_argument("'" + text + "': an empty part in the key path '" + key + "'");
    path.push_back(key.substr(begin, end - begin));
    begin = end + 1;
  }
  return {path, text.substr(equals + 1)};
}

void apply_case_settings(YAML::Node& doc, const std::vector<std::string>& settings) {
  for (const auto& text : settings) {
    std::pair<std::vector<std::string>, std::string> setting;
    try {
      setting = parse_case_setting(text);
    } catch (const std::invalid_argument& e) {
      throw CaseError(std::string("--set ") + e.what());
    }
    const auto& [path, value] = setting;
    YAML::Node parsed;
    try {
      parsed = YAML::Load(value);
    } catch (const YAML::Exception& e) {
      throw CaseError("--set " + text + ": the value is not valid YAML: " + e.msg);
    }
    // Node assignment rebinds in yaml-cpp, so the walk goes by reset() rather than `node = node[key]`.
    YAML::Node node;
    node.reset(doc);
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      YAML::Node next;
      if (node.IsSequence() && is_index(path[i])) {
        const std::size_t index = std::stoul(path[i]);
        if (index >= node.size())
          throw CaseError("--set " + text + ": '" + path[i] + "' is past the end of a list of " + std::to_string(node.size()));
        next.reset(node[index]);
      } else {
        if (node.IsDefined() && !node.IsNull() && !node.IsMap())
          throw CaseError("--set " + text + ": '" + path[i] + "' is not a section of the case");
        next.reset(node[path[i]]);
      }
      node.reset(next);
    }
    const std::string& last = path.back();
    if (node.IsSequence() && is_index(last)) {
      const std::size_t index = std::stoul(last);
      if (index >= node.size())
        throw CaseError("--set " + text + ": '" + last + "' is past the end of a list of " + std::to_string(node.size()));
      node[index] = without_marks(parsed);
    } else {
      if (node.IsDefined() && !node.IsNull() && !node.IsMap())
        throw CaseError("--set " + text + ": the key path does not lead to a section of the case");
      node[last] = without_marks(parsed);
    }
  }
}

}  // namespace fem
