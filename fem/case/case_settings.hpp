#pragma once
// `--set key.path=value`: one case key given on the command line. The value goes into the
// case file's YAML tree before the tree is read, so it is checked exactly as if it had been
// written in the file (an unknown key, a wrong type or a bad value is the same CaseError).
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace fem {

// Splits "mesh.size=0.01" at the first '='; throws std::invalid_argument naming the text when
// there is no '=' or the key path is empty or has an empty part.
std::pair<std::vector<std::string>, std::string> parse_case_setting(const std::string& text);

// Puts each "key.path=value" into `doc`, creating the mappings on the way; a part that is a
// number indexes a list ("materials.0.E=2e11"). The value is read as YAML ("[0, 0, -9.81]"
// is a list). Nodes set this way carry no line, which messages show as "(--set)". The same
// key path twice, a key twice inside a value and aliases (&name, *name) are CaseErrors.
void apply_case_settings(YAML::Node& doc, const std::vector<std::string>& settings);

}  // namespace fem
