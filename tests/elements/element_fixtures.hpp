#pragma once
// Shared helpers for the element tests: the type lists, random reference points, random maps.
#include <array>
#include <random>
#include <vector>

#include "fem/elements/element_type.hpp"
#include "fem/elements/reference_element.hpp"

namespace fem::test {

inline constexpr std::array kCellTypes = {
    ElementType::Line2, ElementType::Line3, ElementType::Tri3,  ElementType::Tri6,
    ElementType::Quad4, ElementType::Quad8, ElementType::Quad9, ElementType::Tet4,
    ElementType::Tet10, ElementType::Hex8,  ElementType::Hex20, ElementType::Hex27};

// Types that are cells of their own space (2D in 2D, 3D in 3D).
inline constexpr std::array kVolumeTypes = {
    ElementType::Tri3, ElementType::Tri6, ElementType::Quad4, ElementType::Quad8, ElementType::Quad9,
    ElementType::Tet4, ElementType::Tet10, ElementType::Hex8, ElementType::Hex20, ElementType::Hex27};

// Types that serve as boundary elements (lines in 2D, surfaces in 3D).
inline constexpr std::array kFacetTypes = {ElementType::Line2, ElementType::Line3, ElementType::Tri3,
                                           ElementType::Tri6,  ElementType::Quad4, ElementType::Quad8,
                                           ElementType::Quad9};

inline bool is_simplex(ElementShape s) {
  return s == ElementShape::Triangle || s == ElementShape::Tetrahedron;
}

// A uniformly random point strictly inside the reference domain of the type.
inline std::array<double, 3> random_reference_point(ElementType type, std::mt19937& rng) {
  const auto& info = element_info(type);
  std::array<double, 3> xi{0, 0, 0};
  if (is_simplex(info.shape)) {
    std::uniform_real_distribution<double> u(0.01, 0.99);
    for (;;) {
      double sum = 0;
      for (int d = 0; d < info.dimension; ++d) sum += xi[d] = u(rng);
      if (sum < 0.99) return xi;
    }
  }
  std::uniform_real_distribution<double> u(-0.99, 0.99);
  for (int d = 0; d < info.dimension; ++d) xi[d] = u(rng);
  return xi;
}

// Reference node coordinates padded to 3 per node (what the isoparametric map takes).
inline std::vector<double> reference_coords_3d(ElementType type) {
  const auto& info = element_info(type);
  const auto ref = reference_nodes(type);
  std::vector<double> xyz(3 * info.num_nodes, 0.0);
  for (int i = 0; i < info.num_nodes; ++i)
    for (int d = 0; d < info.dimension; ++d) xyz[3 * i + d] = ref[i * info.dimension + d];
  return xyz;
}

// x = A xi + b applied to padded coordinates, node by node.
struct AffineMap {
  double A[3][3];
  double b[3];
  std::array<double, 3> apply(const double* xi) const {
    std::array<double, 3> x{};
    for (int r = 0; r < 3; ++r) x[r] = b[r] + A[r][0] * xi[0] + A[r][1] * xi[1] + A[r][2] * xi[2];
    return x;
  }
  std::vector<double> apply_to_nodes(const std::vector<double>& xyz) const {
    std::vector<double> out(xyz.size());
    for (std::size_t i = 0; i < xyz.size(); i += 3) {
      const auto x = apply(&xyz[i]);
      for (int r = 0; r < 3; ++r) out[i + r] = x[r];
    }
    return out;
  }
};

// A random, well-conditioned map with positive determinant (A = 1.7 I + perturbation);
// planar_2d keeps z = 0 (a 2D element stays in the xy-plane).
inline AffineMap random_affine_map(std::mt19937& rng, bool planar_2d) {
  std::uniform_real_distribution<double> u(-0.35, 0.35);
  AffineMap m{};
  for (int r = 0; r < 3; ++r) {
    m.b[r] = 3 * u(rng);
    for (int c = 0; c < 3; ++c) m.A[r][c] = (r == c ? 1.7 : 0.0) + u(rng);
  }
  if (planar_2d) {
    for (int k = 0; k < 3; ++k) m.A[2][k] = m.A[k][2] = 0;
    m.b[2] = 0;
  }
  return m;
}

}  // namespace fem::test
