#include "fem/study/study_result.hpp"

namespace fem::study {
namespace {

nlohmann::json fit_json(const PowerFit& f) {
  if (f.points < 2) return {{"points", f.points}};
  return {{"exponent", f.exponent}, {"coefficient", f.coefficient}, {"r_squared", f.r_squared}, {"points", f.points}};
}

PowerFit fit_from_json(const nlohmann::json& j) {
  PowerFit f;
  f.points = j.at("points");
  if (f.points < 2) return f;
  f.exponent = j.at("exponent");
  f.coefficient = j.at("coefficient");
  f.r_squared = j.at("r_squared");
  return f;
}

}  // namespace

nlohmann::json to_json(const StudyResult& r) {
  nlohmann::json j;
  j["kind"] = r.kind;
  j["title"] = r.title;
  j["case"] = r.case_file;
  if (!r.study_file.empty()) j["study"] = r.study_file;
  j["command"] = r.command;
  j["complete"] = r.complete;
  j["settings"] = r.settings;
  j["environment"] = r.environment;
  j["rows"] = nlohmann::json::array();
  for (const auto& row : r.rows) j["rows"].push_back(to_json(row));
  j["fits"] = nlohmann::json::array();
  for (const auto& f : r.fits)
    j["fits"].push_back({{"solver", f.combination}, {"renumber", f.renumber}, {"time", fit_json(f.time)},
                         {"memory", fit_json(f.memory)}});
  return j;
}

StudyResult study_from_json(const nlohmann::json& j) {
  StudyResult r;
  r.kind = j.at("kind");
  r.title = j.at("title");
  r.case_file = j.at("case");
  r.study_file = j.value("study", "");
  r.command = j.at("command");
  r.complete = j.value("complete", true);
  r.settings = j.at("settings");
  r.environment = j.at("environment");
  for (const auto& row : j.at("rows")) r.rows.push_back(row_from_json(row));
  for (const auto& f : j.at("fits"))
    r.fits.push_back({f.at("solver"), f.at("renumber"), fit_from_json(f.at("time")), fit_from_json(f.at("memory"))});
  return r;
}

}  // namespace fem::study
