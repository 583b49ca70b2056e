#include "fem/case/case_settings.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <map>
#include <stdexcept>

#include "fem/case/case.hpp"
#include "fem/case/yaml_aliases.hpp"

namespace fem {
namespace {

// A copy of a parsed value without its marks, so that a message about it does not point at a
// line of the case file. A key twice in one mapping is refused here: the copy would keep one.
YAML::Node without_marks(const YAML::Node& parsed, const std::string& setting) {
  if (parsed.IsScalar()) return YAML::Node(parsed.Scalar());
  YAML::Node copy;
  const YAML::Node& read = copy;  // looks a key up without adding it
  if (parsed.IsSequence())
    for (const auto& item : parsed) copy.push_back(without_marks(item, setting));
  else if (parsed.IsMap())
    for (const auto& kv : parsed) {
      if (!kv.first.IsScalar()) throw CaseError("--set " + setting + ": a key in the value must be a plain word");
      if (read[kv.first.Scalar()]) throw CaseError("--set " + setting + ": '" + kv.first.Scalar() + "' is given twice in the value; keep one");
      copy[kv.first.Scalar()] = without_marks(kv.second, setting);
    }
  return copy;
}

bool is_index(const std::string& part) {
  return !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
}

// The list entry `part` names in `list`, or a CaseError past its end (however many digits).
std::size_t list_index(const YAML::Node& list, const std::string& part, const std::string& setting) {
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), index);
  if (error != std::errc() || end != part.data() + part.size() || index >= list.size())
    throw CaseError("--set " + setting + ": '" + part + "' is past the end of a list of " + std::to_string(list.size()));
  return index;
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
  std::map<std::string, std::string> given;  // key path -> the setting that gave it
  for (const auto& text : settings) {
    std::pair<std::vector<std::string>, std::string> setting;
    try {
      setting = parse_case_setting(text);
    } catch (const std::invalid_argument& e) {
      throw CaseError(std::string("--set ") + e.what());
    }
    const auto& [path, value] = setting;
    const std::string key = text.substr(0, text.find('='));
    if (const auto [it, inserted] = given.emplace(key, text); !inserted)
      throw CaseError("'" + key + "' is given twice: --set " + it->second + " and --set " + text + "; keep one");
    refuse_aliases(value, "--set " + text);
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
        next.reset(node[list_index(node, path[i], text)]);
      } else {
        if (node.IsDefined() && !node.IsNull() && !node.IsMap())
          throw CaseError("--set " + text + ": '" + path[i] + "' is not a section of the case");
        next.reset(node[path[i]]);
      }
      node.reset(next);
    }
    const std::string& last = path.back();
    if (last == "+") {  // a new entry at the end of the list (the list made when there is none)
      if (node.IsDefined() && !node.IsNull() && !node.IsSequence())
        throw CaseError("--set " + text + ": '+' appends to a list, and the key path does not lead to one");
      node.push_back(without_marks(parsed, text));
    } else if (node.IsSequence() && is_index(last)) {
      node[list_index(node, last, text)] = without_marks(parsed, text);
    } else {
      if (node.IsDefined() && !node.IsNull() && !node.IsMap())
        throw CaseError("--set " + text + ": the key path does not lead to a section of the case");
      node[last] = without_marks(parsed, text);
    }
  }
}

}  // namespace fem
