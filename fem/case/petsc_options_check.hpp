#pragma once
// What solver.petsc_options may say. The text goes to PETSc's options database, where options
// can read files (-options_file), write them (a viewer such as -ksp_view ascii:PATH), load code
// (-dll_load, a python PC) or take over the process (-on_error_attach_debugger). A case file sent
// by someone else must do none of that, so the text is checked when the case is read, in every
// build (with or without PETSc): only the option families that configure a solve pass, and a
// monitor or view only to the console.
#include <string>

namespace fem {

// "" when `text` passes; otherwise why not, naming the option ("'petsc_options' has '-foo', ...").
// The text is split as PETSc's PetscOptionsInsertString splits it: an option is a token that
// starts with '-' and a letter (and is not a number such as -inf), the token after it its value
// unless that is an option too, a token that starts with '"' runs to the next '"'. Accepted: the
// families ksp_, pc_, mg_, sub_ and mat_mumps_, with any value that does not name a viewer other
// than the console (no value, ascii, or a format such as ::ascii_info or ascii:stdout:ascii_info).
std::string petsc_options_problem(const std::string& text);

}  // namespace fem
