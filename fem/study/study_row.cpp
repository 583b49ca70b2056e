#include "fem/study/study_row.hpp"

#include <stdexcept>

#include "support/csv_table.hpp"

namespace fem::study {
namespace {

using nlohmann::json;

// Every column of compare.csv, in order, with how to read it from a row's JSON.
const std::vector<const char*> kColumns = {
    "solver", "device", "preconditioner", "linear_method", "renumber", "renumber_used", "size", "dofs", "nnz", "bandwidth", "time_assemble_s",
    "time_setup_s", "time_setup_min_s", "time_setup_max_s", "time_solve_s", "time_solve_min_s", "time_solve_max_s",
    "time_total_s", "time_total_min_s", "time_total_max_s", "repeats", "rhs", "time_per_rhs_s", "peak_memory_bytes", "process_peak_bytes",
    "solver_memory_bytes",
    "factor_bytes", "fill", "iterations", "residual", "frequencies_hz", "flops", "gflops", "energy_j", "max_rel_diff", "agrees",
    "reference", "status", "message", "note"};

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> optional_number(const json& j, const std::string& key) {
  return j.contains(key) && j[key].is_number() ? std::optional<double>(j[key].get<double>()) : std::nullopt;
}

std::string csv_cell(const json& v) {
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return csv_number(v.get<double>());
  if (v.is_array()) {  // the frequencies of an eigen row: one cell, space-separated
    std::string list;
    for (const auto& x : v) list += (list.empty() ? "" : " ") + csv_number(x.get<double>());
    return list;
  }
  return csv_field(v.get<std::string>());
}

RowStatus parse_status(const std::string& s) {
  for (auto status : {RowStatus::Ok, RowStatus::Failed, RowStatus::Unavailable, RowStatus::Skipped, RowStatus::OverBudget})
    if (s == status_name(status)) return status;
  throw std::invalid_argument("unknown row status '" + s + "'");
}

}  // namespace

const char* status_name(RowStatus status) {
  switch (status) {
    case RowStatus::Ok: return "ok";
    case RowStatus::Failed: return "failed";
    case RowStatus::Unavailable: return "unavailable";
    case RowStatus::Skipped: return "skipped";
    case RowStatus::OverBudget: return "over budget";
  }
  return "?";
}

json to_json(const StudyRow& r) {
  json j;
  j["solver"] = r.solver;
  j["device"] = r.device;
  j["preconditioner"] = r.preconditioner;
  j["linear_method"] = r.linear_method;
  j["renumber"] = r.renumber;
  j["renumber_used"] = r.renumber_used;
  j["size"] = r.size;
  j["dofs"] = r.dofs;
  j["nnz"] = r.nnz;
  j["bandwidth"] = r.bandwidth;
  j["time_assemble_s"] = r.time_assemble_s;
  const bool measured = r.repeats > 0;
  const auto spread = [&](const char* name, const Spread& s) {
    j[std::string(name) + "_s"] = measured ? json(s.median) : json(nullptr);
    j[std::string(name) + "_min_s"] = measured ? json(s.min) : json(nullptr);
    j[std::string(name) + "_max_s"] = measured ? json(s.max) : json(nullptr);
  };
  spread("time_setup", r.time_setup_s);
  spread("time_solve", r.time_solve_s);
  spread("time_total", r.time_total_s);
  j["repeats"] = r.repeats;
  j["rhs"] = r.rhs;
  // The solve time of one right-hand side among rhs: with the setup, what one more load case costs.
  j["time_per_rhs_s"] = measured ? json(r.time_solve_s.median / r.rhs) : json(nullptr);
  j["peak_memory_bytes"] = measured ? json(r.peak_memory_bytes) : json(nullptr);
  j["process_peak_bytes"] = measured ? json(r.process_peak_bytes) : json(nullptr);
  j["solver_memory_bytes"] = measured ? json(r.solver_memory_bytes) : json(nullptr);
  j["factor_bytes"] = optional_json(r.factor_bytes);
  j["fill"] = optional_json(r.fill);
  j["iterations"] = measured ? json(r.iterations) : json(nullptr);
  j["residual"] = measured ? json(r.residual) : json(nullptr);
  j["frequencies_hz"] = r.frequencies_hz.empty() ? json(nullptr) : json(r.frequencies_hz);
  j["flops"] = optional_json(r.flops);
  j["gflops"] = optional_json(r.gflops);
  j["energy_j"] = optional_json(r.energy_j);
  j["max_rel_diff"] = optional_json(r.max_rel_diff);
  j["agrees"] = r.agrees ? json(*r.agrees) : json(nullptr);
  j["reference"] = r.reference;
  j["status"] = status_name(r.status);
  j["message"] = r.message;
  j["note"] = r.note;
  j["figures"] = r.figures;
  return j;
}

StudyRow row_from_json(const json& j) {
  StudyRow r;
  r.solver = j.at("solver");
  r.device = j.at("device");
  r.preconditioner = j.value("preconditioner", "");  // studies written before rows named it
  r.linear_method = j.value("linear_method", "");    // studies written before eigen rows
  r.renumber = j.at("renumber");
  r.renumber_used = j.at("renumber_used");
  r.size = j.at("size");
  r.dofs = j.at("dofs");
  r.nnz = j.at("nnz");
  r.bandwidth = j.at("bandwidth");
  r.time_assemble_s = j.at("time_assemble_s");
  r.repeats = j.at("repeats");
  r.rhs = j.value("rhs", 1);  // compare.json written before load cases: one
  const auto spread = [&](const std::string& name) {
    return Spread{optional_number(j, name + "_s").value_or(0), optional_number(j, name + "_min_s").value_or(0),
                  optional_number(j, name + "_max_s").value_or(0)};
  };
  r.time_setup_s = spread("time_setup");
  r.time_solve_s = spread("time_solve");
  r.time_total_s = spread("time_total");
  r.peak_memory_bytes = optional_number(j, "peak_memory_bytes").value_or(0);
  r.process_peak_bytes = optional_number(j, "process_peak_bytes").value_or(0);
  r.solver_memory_bytes = optional_number(j, "solver_memory_bytes").value_or(0);
  r.factor_bytes = optional_number(j, "factor_bytes");
  r.fill = optional_number(j, "fill");
  r.iterations = static_cast<int>(optional_number(j, "iterations").value_or(0));
  r.residual = optional_number(j, "residual").value_or(0);
  if (j.contains("frequencies_hz") && j["frequencies_hz"].is_array()) r.frequencies_hz = j["frequencies_hz"].get<std::vector<double>>();
  r.flops = optional_number(j, "flops");
  r.gflops = optional_number(j, "gflops");
  r.energy_j = optional_number(j, "energy_j");
  r.max_rel_diff = optional_number(j, "max_rel_diff");
  if (j.at("agrees").is_boolean()) r.agrees = j["agrees"].get<bool>();
  r.reference = j.at("reference");
  r.status = parse_status(j.at("status"));
  r.message = j.at("message");
  r.note = j.at("note");
  r.figures = j.at("figures");
  return r;
}

std::string csv_header() {
  std::string line;
  for (const char* c : kColumns) line += std::string(line.empty() ? "" : ",") + c;
  return line + "\n";
}

std::string csv_line(const StudyRow& row) {
  const json j = to_json(row);
  std::string line;
  bool first = true;
  for (const char* c : kColumns) {
    line += (first ? "" : ",") + csv_cell(j[c]);
    first = false;
  }
  return line + "\n";
}

}  // namespace fem::study
