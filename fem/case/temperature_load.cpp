#include "fem/case/temperature_load.hpp"

#include "fem/case/yaml_section.hpp"

namespace fem {

TemperatureLoadSpec read_temperature_load(const Section& loads, const std::filesystem::path& file) {
  const YAML::Node node = loads.get("temperature");
  TemperatureLoadSpec t;
  t.line = node.Mark().is_null() ? loads.line() : node.Mark().line + 1;
  if (node.IsScalar()) {
    t.uniform = loads.number("temperature");
    return t;
  }
  if (!node.IsMap()) loads.fail(node, "'temperature' in 'loads' must be a number or {from: heat_case.yaml}");
  const Section s(file, node, "'loads.temperature'", {"from"});
  const auto path = std::filesystem::weakly_canonical(std::filesystem::absolute(file).parent_path() / s.text("from"));
  if (!std::filesystem::is_regular_file(path)) s.fail(s.get("from"), "heat case not found: " + path.string());
  t.from = path;
  return t;
}

}  // namespace fem
