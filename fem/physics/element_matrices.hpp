#pragma once
// Element matrices and load vectors: the one place where shape functions, quadrature and
// the material law meet. Dofs are ordered node-major: (node a, component c) -> a * d + c.
#include <array>
#include <span>
#include <stdexcept>
#include <vector>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/physics/problem.hpp"

namespace fem {

// A cell whose Jacobian vanishes or changes sign inside it (3D: any non-positive value).
class InvertedElement : public std::runtime_error {
 public:
  InvertedElement(std::size_t cell, const std::string& what) : std::runtime_error(what), cell_(cell) {}
  std::size_t cell() const { return cell_; }

 private:
  std::size_t cell_;
};

// Scratch space reused across elements so the assembly loop does not allocate.
struct ElementBuffers {
  std::vector<double> coords;  // 3 per node
  std::vector<double> matrix;  // row-major, (nodes * d) squared
  std::vector<double> load;    // nodes * d
  std::vector<double> gradients;  // the shape gradients at one quadrature point
  std::vector<double> pairs;      // per node pair, the stiffness sums over the points
};

// Stiffness (conductivity) matrix and body load of one cell.
void cell_contribution(const Problem& p, std::size_t cell, ElementBuffers& out);

// Adds one integration point's share of a cell's body load to `load` (nodes * d, node-major):
// the same terms cell_contribution sums, for a loop that maps the cell's points anyway.
void add_cell_body_load(const Problem& p, std::size_t cell, const VolumePoint& vp, double quadrature_weight,
                        std::vector<double>& load);

// The body load of one cell alone, into out.load (no matrix): for a right-hand side assembled
// without K. False, with `out` untouched, when the cell carries none.
bool cell_body_load(const Problem& p, std::size_t cell, ElementBuffers& out);
// Whether some cell may carry one: a material with gravity or a heat source, or `p.body`.
bool has_body_load(const Problem& p);
// A material's body force per unit volume where it is uniform (no `p.body`): gravity times its
// density, or the heat source (first component).
std::array<double, 3> uniform_body_force(const Problem& p, const IsotropicMaterial& m);

// The quadrature of a boundary load on a facet of `type`: enough points for a quadratic facet
// times a quadratic load or convection's N N^T. Loads given by their resultant integrate with it
// too, so that their nodal loads add up to it exactly.
const std::vector<QuadraturePoint>& facet_load_rule(ElementType type);

// Matrix (convection only; otherwise zero) and load of one facet of a boundary load;
// `index` is the position within load.facets.
void facet_contribution(const Problem& p, const BoundaryLoad& load, std::size_t index, ElementBuffers& out);

// Gathers the node coordinates of an element into out (3 per node).
void gather_coords(const Mesh& mesh, std::span<const int> nodes, std::vector<double>& out);

}  // namespace fem
