#include "fem/parallel/ghost_exchange.hpp"

#include <algorithm>

#include "solvers/petsc/petsc_handle.hpp"
#include "solvers/petsc/petsc_session.hpp"

namespace fem {

using petsc::check;

GhostExchange::GhostExchange(std::int64_t owned_nodes, std::vector<PetscInt> ghost_nodes, std::vector<std::int32_t> position)
    : owned_nodes_(owned_nodes), ghost_nodes_(std::move(ghost_nodes)), position_(std::move(position)) {}

void GhostExchange::update_by_position(std::span<double> values, int width) const {
  const auto owned = static_cast<PetscInt>(owned_nodes_ * width);
  petsc::OwnedVec ghosted;
  check(VecCreateGhostBlock(PETSC_COMM_WORLD, width, owned, PETSC_DECIDE, static_cast<PetscInt>(ghost_nodes_.size()),
                            ghost_nodes_.data(), ghosted.out()),
        "VecCreateGhostBlock");
  PetscScalar* mine = nullptr;
  check(VecGetArray(ghosted, &mine), "VecGetArray");
  std::copy_n(values.begin(), owned, mine);
  check(VecRestoreArray(ghosted, &mine), "VecRestoreArray");
  check(VecGhostUpdateBegin(ghosted, INSERT_VALUES, SCATTER_FORWARD), "VecGhostUpdateBegin");
  check(VecGhostUpdateEnd(ghosted, INSERT_VALUES, SCATTER_FORWARD), "VecGhostUpdateEnd");
  Vec local = nullptr;
  check(VecGhostGetLocalForm(ghosted, &local), "VecGhostGetLocalForm");
  const PetscScalar* all = nullptr;
  check(VecGetArrayRead(local, &all), "VecGetArrayRead");
  std::copy(all + owned, all + owned + ghost_nodes_.size() * static_cast<std::size_t>(width), values.begin() + owned);
  check(VecRestoreArrayRead(local, &all), "VecRestoreArrayRead");
  check(VecGhostRestoreLocalForm(ghosted, &local), "VecGhostRestoreLocalForm");
}

void GhostExchange::complete(std::span<double> field, int width) const {
  if (field.empty()) return;
  const auto w = static_cast<std::size_t>(width);
  std::vector<double> by_position(field.size());
  for (std::size_t n = 0; n < position_.size(); ++n)
    std::copy_n(field.begin() + n * w, w, by_position.begin() + static_cast<std::size_t>(position_[n]) * w);
  update_by_position(by_position, width);
  for (std::size_t n = 0; n < position_.size(); ++n)
    std::copy_n(by_position.begin() + static_cast<std::size_t>(position_[n]) * w, w, field.begin() + n * w);
}

}  // namespace fem
