#include "bench/pipeline/pipeline_table.hpp"

#include <cstdio>

#include "support/atomic_output.hpp"

namespace fem::bench {
namespace {

double per(double amount, double seconds) { return seconds > 0 ? amount / seconds : 0; }

}  // namespace

void PipelineTable::start_case(const PipelineCase& kind) {
  std::printf("\n== %s: CG + AMG to 1e-8; seconds per phase (median), rates from phase_traffic.hpp's byte model\n",
              kind.name.c_str());
  std::printf("%4s %-6s %9s %6s %6s %6s %6s %6s %4s %6s %6s %6s %6s | %7s %5s %4s | %7s %5s %4s | %7s %6s | %6s %5s\n",
              "n", "device", "dofs", "mesh", "renum", "asm", "setup", "iter", "its", "post", "write", "total", "wall",
              "asmMe/s", "GB/s", "%tri", "posMe/s", "GB/s", "%tri", "writeMB", "MB/s", "B/dof", "dev");
}

void PipelineTable::add(const PipelineCase& kind, const PipelineRow& row) {
  const RunSizes& s = row.sizes;
  const double elements = static_cast<double>(s.elements);
  const double asm_bytes = row.status == "ok" ? assembly_bytes(s) : 0;
  const double post = row.status == "ok" ? post_bytes(s, kind.post_components) : 0;
  const double asm_gbs = per(asm_bytes, row.phase("assemble")) / 1e9, post_gbs = per(post, row.phase("post")) / 1e9;
  const double write_mbs = per(row.write_bytes, row.phase("write")) / 1e6;
  const double dofs = static_cast<double>(s.dofs);
  const double host_per_dof = dofs > 0 ? row.peak_host_bytes / dofs : 0;
  const double device_per_dof = dofs > 0 ? row.device_bytes / dofs : 0;
  const double triad_gbs = triad_ / 1e9;

  if (row.status != "ok") {
    const std::string n = row.n > 0 ? std::to_string(row.n) : "-";
    std::printf("%4s %-6s %s: %s\n", n.c_str(), row.device.c_str(), row.status.c_str(), row.note.c_str());
  } else {
    char device_text[16] = "-";
    if (device_per_dof > 0) std::snprintf(device_text, sizeof device_text, "%.0f", device_per_dof);
    std::printf(
        "%4d %-6s %9lld %6.2f %6.2f %6.2f %6.2f %6.2f %4d %6.2f %6.2f %6.2f %6.2f | %7.2f %5.2f %4.0f | %7.2f %5.2f %4.0f "
        "| %7.1f %6.0f | %6.0f %5s\n",
        row.n, row.device.c_str(), static_cast<long long>(s.dofs), row.phase("mesh"), row.phase("renumber"),
        row.phase("assemble"), row.setup_s, row.iterate_s, row.iterations, row.phase("post"), row.phase("write"),
        row.total_s, row.wall_s, per(elements, row.phase("assemble")) / 1e6, asm_gbs, 100 * asm_gbs / triad_gbs,
        per(elements, row.phase("post")) / 1e6, post_gbs, 100 * post_gbs / triad_gbs, row.write_bytes / 1e6, write_mbs,
        host_per_dof, device_text);
    if (!row.note.empty()) std::printf("     %s\n", row.note.c_str());
  }
  std::fflush(stdout);

  csv_.add({row.case_name, row.n, row.device, row.status, row.repeats, s.elements, s.nodes, s.dofs, s.nnz,
            row.phase("mesh"), row.phase("renumber"), row.phase("assemble"), row.phase("solve"), row.setup_s,
            row.iterations, row.iterate_s, row.phase("post"), row.phase("write"), row.total_s, row.wall_s,
            per(elements, row.phase("assemble")), asm_bytes, asm_gbs, per(elements, row.phase("post")), post, post_gbs,
            triad_gbs, row.write_bytes / 1e6, write_mbs, row.peak_host_bytes, host_per_dof, row.peak_after("assemble"),
            row.peak_after("solve"), device_per_dof, row.note});
  rows_.push_back({{"case", row.case_name},
                   {"n", row.n},
                   {"device", row.device},
                   {"status", row.status},
                   {"note", row.note},
                   {"repeats", row.repeats},
                   {"elements", s.elements},
                   {"nodes", s.nodes},
                   {"dofs", s.dofs},
                   {"nnz", s.nnz},
                   {"time_s", row.phase_s},
                   {"amg_setup_s", row.setup_s},
                   {"iterations", row.iterations},
                   {"iterate_s", row.iterate_s},
                   {"total_s", row.total_s},
                   {"wall_s", row.wall_s},
                   {"assemble", {{"elements_per_s", per(elements, row.phase("assemble"))}, {"bytes", asm_bytes}, {"GBps", asm_gbs}}},
                   {"post", {{"elements_per_s", per(elements, row.phase("post"))}, {"bytes", post}, {"GBps", post_gbs}}},
                   {"write", {{"bytes", row.write_bytes}, {"MBps", write_mbs}}},
                   {"peak_host_bytes", row.peak_host_bytes},
                   {"peak_host_bytes_per_dof", host_per_dof},
                   {"peak_host_bytes_after_phase", row.peak_after_phase_bytes},
                   {"device_bytes_per_dof", device_per_dof}});
}

void PipelineTable::write(const std::filesystem::path& directory, nlohmann::json about) const {
  csv_.write(directory / "pipeline.csv");
  about["rows"] = rows_;
  write_file_atomically(directory / "pipeline.json", about.dump(2) + "\n");
  std::printf("\nCSV: %s\nJSON: %s\n", (directory / "pipeline.csv").c_str(), (directory / "pipeline.json").c_str());
}

}  // namespace fem::bench
