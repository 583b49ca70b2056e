#pragma once
// One row of a study: one solver (method, device) on one system (renumbering, size), with what
// was measured, as the terminal table, compare.csv and compare.json all show it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fem/study/power_law_fit.hpp"

namespace fem::study {

enum class RowStatus {
  Ok,           // solved; the numbers are measurements
  Failed,       // the solver gave up on this system (not positive definite, no convergence, out of memory)
  Unavailable,  // not in this build, or no such device here
  Skipped,      // a sweep stopped giving it larger problems after it passed the budget, or predicted it would
  OverBudget,   // stopped while it ran past the time budget
};
const char* status_name(RowStatus status);

struct StudyRow {
  std::string solver, device;
  std::string preconditioner;            // iterative methods: the one used; direct: ""
  std::string linear_method;             // eigen rows of shift-invert Lanczos: the method that factorised K - sigma M
  std::string renumber;                  // as asked: none | rcm | gps | sloan | auto
  std::string renumber_used;             // what ran: "rcm", or "auto/sloan"
  std::string size;                      // sweeps: "40x8x8" (box divisions) or "h=0.05"; compare: ""
  std::int64_t dofs = 0, nnz = 0, bandwidth = 0;
  double time_assemble_s = 0;            // assembling this system (shared by the rows that use it)
  int repeats = 0;                       // timed solves behind the spreads
  int rhs = 1;                           // right-hand sides per solve: the case's load cases, solved together
  Spread time_setup_s, time_solve_s, time_total_s;  // setup: factorisation/conversion/transfers
  double peak_memory_bytes = 0;          // peak resident memory the solve added to the process
  double process_peak_bytes = 0;         // the process's peak resident memory during the solve (mesh, matrix ... included)
  double solver_memory_bytes = 0;        // what the solver counts as its own (device memory on GPUs)
  std::optional<double> factor_bytes, fill;  // direct solvers; fill = factor entries / entries of K's lower triangle
  int iterations = 0;
  double residual = 0;                   // ||K u - f|| / ||f||, recomputed the same way for every row;
                                         // eigen rows: the largest mode residual ||K x - lambda M x|| / ||K x||
  std::vector<double> frequencies_hz;    // eigen rows: the modes found, lowest first
  std::optional<double> flops, gflops;   // where the solver counts its flops
  std::optional<double> energy_j;        // where the device measures it (NVML on NVIDIA GPUs)
  std::optional<double> max_rel_diff;    // max |u - u_ref| / max |u_ref| over all nodal values; eigen
                                         // rows: of the lowest frequencies (fem/study/frequency_agreement.hpp)
  std::optional<bool> agrees;            // max_rel_diff <= the study's tolerance
  bool reference = false;                // this row's solution is the one the others are compared with
  RowStatus status = RowStatus::Ok;
  std::string message;                   // why it failed, is unavailable or was skipped
  std::string note;                      // e.g. "passed the time budget: larger sizes skipped"
  nlohmann::json figures = nlohmann::json::object();  // the solver's own figures (front size, block size ...)

  std::string combination() const {
    return solver + ":" + device + (preconditioner.empty() ? "" : ":" + preconditioner) +
           (linear_method.empty() ? "" : ":" + linear_method);
  }
};

nlohmann::json to_json(const StudyRow& row);
StudyRow row_from_json(const nlohmann::json& j);  // what to_json wrote; throws nlohmann::json::exception

// compare.csv: the header line and one line per row (RFC 4180 quoting; empty = not defined).
std::string csv_header();
std::string csv_line(const StudyRow& row);

}  // namespace fem::study
