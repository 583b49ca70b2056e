#include "fem/elements/shape_table.hpp"

#include <array>
#include <stdexcept>

#include "fem/elements/quadrature.hpp"
#include "fem/elements/reference_element.hpp"

namespace fem {
namespace {

ShapeTable tabulate(ElementType type) {
  const auto& info = element_info(type);
  ShapeTable t;
  if (info.dimension == 0) return t;
  const auto& rule = quadrature_rule(info.shape, stiffness_quadrature_degree(type));
  t.points = static_cast<int>(rule.size());
  t.nodes = info.num_nodes;
  t.dimension = info.dimension;
  t.weight.resize(rule.size());
  t.N.resize(rule.size() * t.nodes);
  t.dN.resize(rule.size() * t.nodes * t.dimension);
  for (std::size_t q = 0; q < rule.size(); ++q) {
    t.weight[q] = rule[q].weight;
    shape_functions_and_derivatives(type, rule[q].xi.data(), &t.N[q * t.nodes], &t.dN[q * t.nodes * t.dimension]);
  }
  return t;
}

}  // namespace

const ShapeTable& stiffness_shape_table(ElementType type) {
  // Built once, on first use, for every type (a function-local static is initialised once even
  // when threads race to it).
  static const std::array<ShapeTable, kElementTypeCount> tables = [] {
    std::array<ShapeTable, kElementTypeCount> all;
    for (std::size_t k = 0; k < kElementTypeCount; ++k) all[k] = tabulate(static_cast<ElementType>(k));
    return all;
  }();
  const auto& table = tables.at(static_cast<std::size_t>(type));
  if (table.points == 0)
    throw std::invalid_argument("stiffness_shape_table: a " + std::string(element_info(type).name) +
                                " has no stiffness rule");
  return table;
}

}  // namespace fem
