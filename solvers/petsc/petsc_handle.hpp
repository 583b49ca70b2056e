#pragma once
// Ownership of one PETSc object (Mat, Vec, KSP, MatNullSpace): destroyed when the handle goes,
// so that a solve that throws half way leaks nothing.
#include <petscksp.h>

namespace fem::petsc {

template <class Object, PetscErrorCode (*destroy)(Object*)>
class Handle {
 public:
  Handle() = default;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (object_) destroy(&object_);
  }
  Object* out() { return &object_; }  // for PETSc's XxxCreate(..., &object)
  operator Object() const { return object_; }

 private:
  Object object_ = nullptr;
};

using OwnedMat = Handle<Mat, MatDestroy>;
using OwnedVec = Handle<Vec, VecDestroy>;
using OwnedKsp = Handle<KSP, KSPDestroy>;
using OwnedNullSpace = Handle<MatNullSpace, MatNullSpaceDestroy>;

}  // namespace fem::petsc
