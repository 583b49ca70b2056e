#include "fem/study/study_report.hpp"

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <sstream>

#include "fem/pipeline/number_format.hpp"
#include "fem/study/study_table.hpp"

namespace fem::study {
namespace {

using nlohmann::json;

std::string text_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string machine_line(const json& env) {
  std::string s = text_of(env.value("cpu", json("unknown CPU"))) + " (" + text_of(env.value("threads_used", json(0))) +
                  " threads used of " + text_of(env.value("hardware_threads", json(0))) + ")";
  for (const auto& gpu : env.value("gpus", json::array()))
    s += ", " + text_of(gpu["name"]) + " (driver " + text_of(gpu["driver"]) + ")";
  return s;
}

std::string commit_line(const json& env) {
  const json git = env.value("git", json::object());
  std::string commit = text_of(git.value("commit", json("unknown")));
  if (commit.size() > 12) commit = commit.substr(0, 12);
  return "commit `" + commit + "`" + (git.value("dirty", json(false)) == json(true) ? " with local changes" : "");
}

std::string fits_table(const std::vector<GrowthFit>& fits) {
  const auto exponent = [](const PowerFit& f) { return f.points >= 2 ? short_number(f.exponent) : std::string("-"); };
  const auto r2 = [](const PowerFit& f) { return f.points >= 2 ? short_number(f.r_squared) : std::string("-"); };
  std::string t = "| solver | renumber | sizes fitted | time ∝ n^p: p | R² | memory ∝ n^q: q | R² |\n"
                  "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& f : fits)
    t += "| " + f.combination + " | " + f.renumber + " | " + std::to_string(f.time.points) + " | " + exponent(f.time) +
         " | " + r2(f.time) + " | " + exponent(f.memory) + " | " + r2(f.memory) + " |\n";
  return t;
}

std::string environment_table(const json& env) {
  std::string t = "| | |\n| --- | --- |\n";
  const auto add = [&](const std::string& key, const std::string& value) { t += "| " + key + " | " + value + " |\n"; };
  add("date (UTC)", text_of(env.value("date", json(""))));
  add("host, OS", text_of(env.value("host", json(""))) + ", " + text_of(env.value("os", json(""))));
  add("CPU", machine_line(env));
  const json cl = env.value("opencl_device", json(nullptr));
  add("OpenCL device", cl.is_null() ? "none" : text_of(cl["device"]) + " (" + text_of(cl["platform"]) + ", " + text_of(cl["driver"]) + ")");
  add("fem", text_of(env.value("fem_version", json(""))) + ", " + commit_line(env) + ", build " + env.value("build", json::object()).dump());
  std::string libs;
  const json libraries = env.value("libraries", json::object());
  for (const auto& [name, version] : libraries.items())
    libs += (libs.empty() ? "" : ", ") + name + " " + text_of(version);
  add("libraries", libs);
  const auto load = [&](const char* key) {
    const json l = env.value(key, json(nullptr));
    if (!l.is_array() || l.size() != 3) return std::string("not recorded");
    char text[64];
    std::snprintf(text, sizeof text, "%.2f %.2f %.2f", l[0].get<double>(), l[1].get<double>(), l[2].get<double>());
    return std::string(text);
  };
  add("load average (1, 5, 15 min)", "before " + load("load_average") + "; after " + load("load_average_after"));
  return t;
}

std::string settings_list(const StudyResult& r) {
  std::string s;
  for (const auto& [key, value] : r.settings.items()) s += "- " + key + ": `" + text_of(value) + "`\n";
  return s;
}

}  // namespace

std::string study_report(const StudyResult& r, const Plots& plots) {
  std::ostringstream md;
  const json& env = r.environment;
  md << "# " << r.title << "\n\n"
     << "`fem " << r.kind << "` of `" << std::filesystem::path(r.case_file).filename().string() << "`"
     << (r.study_file.empty() ? "" : " (study `" + std::filesystem::path(r.study_file).filename().string() + "`)")
     << " on " << machine_line(env) << ", " << text_of(env.value("date", json(""))) << "; fem "
     << text_of(env.value("fem_version", json(""))) << ", " << commit_line(env) << ".\n\n"
     << "Rerun with: `" << r.command << "`\n\n"
     << (r.complete ? "" : "**Interrupted**: these are the sizes measured before the sweep stopped.\n\n")
     << "## Settings\n\n"
     << settings_list(r) << "\n## Results\n\n"
     << markdown_table(r.rows) << "\n";
  const auto reference = std::find_if(r.rows.begin(), r.rows.end(), [](const StudyRow& row) { return row.reference; });
  // Eigen rows (a modal case) are compared by their frequencies, not by nodal values.
  const bool eigen = std::any_of(r.rows.begin(), r.rows.end(), [](const StudyRow& row) { return !row.frequencies_hz.empty(); });
  if (reference != r.rows.end())
    md << "The reference solution is that of " << reference->combination() << " (" << reference->renumber_used
       << (r.kind == "sweep" ? "), at each size" : ")") << ". *max rel diff* = "
       << (eigen ? "max over the lowest 10 modes of |f − f_ref| / f_ref (a rigid-body mode of the reference, its "
                   "eigenvalue zero but for roundoff: |λ − λ_ref| / the largest λ_ref compared)"
                 : "max over all nodal values of |u − u_ref| / max |u_ref|")
       << "; a row *agrees* when it is at most " << text_of(r.settings.value("tolerance", json(0))) << ".\n\n";
  if (!r.fits.empty())
    md << "## Growth with the problem size\n\nLeast-squares lines through log(time) and log(memory) against log(dofs), "
          "over the sizes each solver was measured at:\n\n"
       << fits_table(r.fits) << "\n";
  md << "## Plots\n\n";
  for (const auto& p : plots.drawn) md << "![" << p.caption << "](" << p.file << ")\n\n*" << p.caption << "*\n\n";
  if (!plots.problem.empty()) md << "No plots were drawn: " << plots.problem << "\n\n";
  md << "## How the numbers are measured\n\n"
        "- **setup s / solve s**: the solver's own timers. Setup is the factorisation (direct and frontal methods), or "
        "matrix conversion and transfers to the device (iterative); solve is the substitutions or the iterations. "
        "**total s** is the wall-clock time of the whole solve call. Each is the median of the repeats (min–max in "
        "brackets); every repeat starts from a fresh solver and a zero vector. Assembly is done once per renumbering "
        "and not counted.\n"
        "- **memory**: the larger of two counts: the peak resident memory the solve added to the process (its "
        "high-water mark, reset before each solve, minus the resident size when the solve began) and what the solver "
        "counts as its own allocations (on GPUs: device memory). compare.csv has both (`peak_memory_bytes`, "
        "`solver_memory_bytes`) and the process's whole peak (`process_peak_bytes`).\n"
        "- **factor**: bytes of the stored factor (band, or the frontal method's pivot rows); *fill* = stored factor "
        "entries / entries of the lower triangle of K (zeros inside the band count).\n"
        "- **GFLOP/s**: the solver's own flop count of its factorisation divided by the median setup time (direct "
        "solvers only).\n"
        "- **residual**: ‖K u − f‖ / ‖f‖ recomputed by fem for every row, the same way whatever the solver; for "
        "eigen rows the largest over the modes of ‖K x − λ M x‖ / ‖K x‖, and setup is the preparation of K − σM "
        "(factorisation, AMG set-up), solve the rest of the eigen method (its solves, orthogonalisation, "
        "Rayleigh–Ritz), *iterations* its restarts or iterations.\n"
        "- **energy J**: the GPU's energy counter (NVML) over the whole solve call, median of the repeats, for CUDA "
        "rows on NVIDIA GPUs; '-' where the device has no counter.\n"
        "- **status**: `unavailable` (not in this build or no such device), `failed` (the solver gave up: not "
        "positive definite, no convergence, out of memory), `skipped` (a sweep stopped giving it larger problems "
        "after it passed the budget, or its growth so far predicted it would), `over budget` (stopped while it ran "
        "past the time budget).\n\n"
     << "## Environment\n\n" << environment_table(env)
     << (plots.matplotlib_version.empty() ? "" : "\nPlots drawn with matplotlib " + plots.matplotlib_version + ".\n")
     << "\nFiles: `compare.csv` (one line per row), `compare.json` (the rows, the settings and this environment).\n";
  return md.str();
}

}  // namespace fem::study
