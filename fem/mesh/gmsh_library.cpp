#include "fem/mesh/gmsh_library.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace fem {
namespace {

const GmshEntryPoints& load() {
  // RTLD_LOCAL: Gmsh's symbols stay out of the global scope the rest of fem binds against. Where
  // the build tree is gone (fem copied elsewhere), the library by name through the loader's path.
  void* library = dlopen(FEM_GMSH_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!library) library = dlopen(FEM_GMSH_LIBRARY_NAME, RTLD_NOW | RTLD_LOCAL);
  if (!library) throw std::runtime_error(std::string("cannot load Gmsh (") + FEM_GMSH_LIBRARY + "): " + dlerror());
  using EntryPoints = const GmshEntryPoints* (*)();
  const auto entry = reinterpret_cast<EntryPoints>(dlsym(library, kGmshEntryPointsSymbol));
  if (!entry)
    throw std::runtime_error(std::string("cannot load Gmsh: ") + FEM_GMSH_LIBRARY + " has no " + kGmshEntryPointsSymbol);
  return *entry();
}

}  // namespace

const GmshEntryPoints& gmsh_library() {
  static const GmshEntryPoints& points = load();  // a failed load throws, and the next call tries again
  return points;
}

}  // namespace fem
