// solver.petsc_options against its allow-list: what configures a solve passes, anything that
// reads or writes files, opens windows or sockets, loads code or takes over the process is
// refused naming the option.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "fem/case/petsc_options_check.hpp"

using fem::petsc_options_problem;

TEST_CASE("options that configure the solve pass, monitors and views to the console included") {
  for (const char* text : {
           "",
           "   ",
           "-pc_type hypre",
           "-ksp_type gmres -pc_type bjacobi",
           "-ksp_max_it 2 -ksp_converged_maxits",
           "-ksp_type preonly",
           "-pc_type jacobi",
           "-ksp_max_it 3",
           "-ksp_type cg -pc_type gamg -pc_gamg_threshold 0.02 -pc_gamg_agg_nsmooths 1 -mg_levels_ksp_type chebyshev",
           "-mg_levels_pc_type sor -mg_coarse_pc_type lu -pc_mg_cycle_type w",
           "-pc_type hypre -pc_hypre_type boomeramg -pc_hypre_boomeramg_relax_type_all symmetric-SOR/Jacobi",
           "-pc_type bjacobi -sub_pc_type icc -sub_pc_factor_levels 1",
           "-mat_mumps_icntl_14 50 -mat_mumps_icntl_24 1 -mat_mumps_cntl_3 1e-8 -mat_mumps_icntl_4 2",
           "-ksp_rtol 1e-8 -ksp_atol -1 -ksp_norm_type unpreconditioned",
           "-ksp_monitor -ksp_converged_reason -ksp_view -ksp_monitor_true_residual",
           "-ksp_view ::ascii_info -ksp_monitor ascii -ksp_converged_reason ascii:stdout",
           "-ksp_view ascii::ascii_info_detail -ksp_monitor_short stdout -ksp_view_pre :stderr",
           "-ksp_view_mat ascii:stdout:ascii_matlab -ksp_monitor_singular_value",
           "-KSP_TYPE CG -Pc_Type Jacobi",
           "-ksp_type \"cg\"",
           "-ksp_rtol -inf",  // -inf is a number to PETSc, so the value of -ksp_rtol
       }) {
    CAPTURE(text);
    CHECK(petsc_options_problem(text) == "");
  }
}

TEST_CASE("options that reach outside the solve are refused by name and say why") {
  // Each text, and words its message must hold.
  const std::vector<std::pair<std::string, std::vector<std::string>>> refused = {
      {"-ksp_view ascii:/tmp/escaped.txt", {"'-ksp_view ascii:/tmp/escaped.txt'", "is refused: a viewer to a file", "console"}},
      {"-ksp_monitor ascii:monitor.txt", {"'-ksp_monitor ascii:monitor.txt'", "file"}},
      {"-ksp_view :out.txt", {"'-ksp_view :out.txt'"}},
      {"-ksp_view_mat binary", {"'-ksp_view_mat binary'"}},
      {"-ksp_view_solution binary:u.bin", {"'-ksp_view_solution binary:u.bin'"}},
      {"-ksp_view_rhs hdf5:b.h5", {"'-ksp_view_rhs hdf5:b.h5'"}},
      {"-ksp_view_mat vtk:a.vtk", {"'-ksp_view_mat vtk:a.vtk'"}},
      {"-ksp_monitor draw", {"'-ksp_monitor draw'"}},
      {"-ksp_monitor_solution draw::draw_lg", {"'-ksp_monitor_solution draw::draw_lg'"}},
      {"-ksp_view socket", {"'-ksp_view socket'"}},
      {"-ksp_view glvis:localhost:19916", {"glvis"}},
      {"-ksp_view mybinary", {"'-ksp_view mybinary'"}},  // PETSc takes a viewer type by its ending
      {"-ksp_view ascii:stdout:ascii_info:append:x", {"'-ksp_view ascii:stdout:ascii_info:append:x'"}},
      {"-ksp_view \"ascii:/tmp/x y\"", {"'-ksp_view \"ascii:/tmp/x y\"'"}},
      {"-ksp_view ASCII:/TMP/X", {"'-ksp_view ASCII:/TMP/X'"}},
      {"-pc_type python -pc_python_type mymodule.MyPC", {"'-pc_type python'", "code"}},
      {"-pc_python_type mymodule.MyPC", {"'-pc_python_type'", "('python')"}},
      {"-ksp_monitor_lg_residualnorm", {"'-ksp_monitor_lg_residualnorm'", "window"}},
      {"-mat_mumps_ooc_tmpdir /etc -mat_mumps_icntl_22 1", {"'-mat_mumps_ooc_tmpdir'", "('tmpdir')"}},
      {"-mat_mumps_icntl_2 10", {"'-mat_mumps_icntl_2'", "fort.N"}},
      {"-ksp_convergence_test skip", {"'-ksp_convergence_test'", "test of convergence"}},
      {"-mg_levels_ksp_convergence_test skip", {"'-mg_levels_ksp_convergence_test'", "iteration limit"}},
      {"-options_file /dev/zero", {"'-options_file'", "-options_file reads a file"}},
      {"-OPTIONS_FILE /dev/zero", {"'-OPTIONS_FILE'", "options database"}},
      {"\"-options_file\" /dev/zero", {"'-options_file'"}},
      {"-options_file_yaml opts.yaml", {"'-options_file_yaml'"}},
      {"-prefix_push evil_ -options_file x", {"'-prefix_push'", "prefix"}},
      {"-dll_append /tmp/libevil.so", {"'-dll_append'", "loads code"}},
      {"-dynamic_library_preload /tmp/libevil.so", {"'-dynamic_library_preload'", "loads code"}},
      {"-on_error_attach_debugger", {"'-on_error_attach_debugger'", "handler"}},
      {"-start_in_debugger noxterm", {"'-start_in_debugger'", "debugger"}},
      {"-malloc_dump", {"'-malloc_dump'", "memory"}},
      {"-log_view ascii:log.txt", {"'-log_view'", "log"}},
      {"-history hist.txt", {"'-history'", "history"}},
      {"-viewer_binary_filename x", {"'-viewer_binary_filename'", "viewers"}},
      {"-help", {"'-help'", "help"}},
      {"-h", {"'-h'", "help"}},
      {"-info info.txt", {"'-info'", "is not among the PETSc options fem passes on"}},
      {"-foo", {"'-foo' is not among the PETSc options fem passes on: ksp_, pc_, mg_, sub_, mat_mumps_ families (a monitor or view goes to the console)"}},
      {"--ksp_type cg", {"'--ksp_type'"}},
      {"-ksp_type=cg", {"'-ksp_type=cg'", "not a PETSc option name"}},
      {"cg -ksp_type", {"'cg' stands where an option (-name) belongs"}},
      {"-1 -ksp_type cg", {"'-1' stands where an option"}},
      {"-ksp_type\t-options_file x", {"tab, line break"}},
      {"-ksp_type cg\n-options_file x", {"tab, line break"}},
  };
  for (const auto& [text, words] : refused) {
    CAPTURE(text);
    const std::string problem = petsc_options_problem(text);
    CAPTURE(problem);
    REQUIRE(problem != "");
    CHECK(problem.rfind("'petsc_options'", 0) == 0);
    for (const auto& word : words) CHECK_MESSAGE(problem.find(word) != std::string::npos, "missing: " << word);
  }
}
