#pragma once
// What the benchmarks' command lines share: comma-separated lists, checked numbers, --precision,
// the run of a benchmark from its options (support/command_line.hpp gives the exit codes), and
// the CSV of its rows.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "support/command_line.hpp"
#include "support/csv_table.hpp"

namespace fem::bench {

// NAME a,b,c (or NAME a b c): into `values`, each one checked; --help shows the default.
template <class T>
CLI::Option* add_list_option(CLI::App& app, const std::string& name, std::vector<T>& values,
                             const std::string& description, const CLI::Validator& check) {
  // `none` empties the list (e.g. --sizes-2d none: no 2D rows).
  std::string shown;
  for (const auto& v : values) shown += (shown.empty() ? "" : ",") + CLI::detail::to_string(v);
  const auto assign = [&values](const std::vector<std::string>& given) {
    values.clear();
    for (const auto& item : given) {
      if (item == "none") continue;
      T value{};
      CLI::detail::lexical_cast(item, value);  // the check has accepted it
      values.push_back(value);
    }
  };
  return app.add_option_function<std::vector<std::string>>(name, assign, description + " (or none)")
      ->delimiter(',')
      ->check(check | CLI::IsMember({"none"}))
      ->default_str(shown);
}

// NAME VALUE: into `value`, checked; --help shows the default.
template <class T>
CLI::Option* add_checked_option(CLI::App& app, const std::string& name, T& value, const std::string& description,
                                const CLI::Validator& check) {
  return app.add_option(name, value, description)->check(check)->capture_default_str();
}

// --precision double|float|both: the precisions to run, in that order.
inline void add_precision_option(CLI::App& app, std::vector<std::string>& precisions, const std::string& description) {
  app.add_option_function<std::string>(
         "--precision",
         [&precisions](const std::string& p) {
           precisions = p == "both" ? std::vector<std::string>{"double", "float"} : std::vector<std::string>{p};
         },
         description)
      ->check(CLI::IsMember({"double", "float", "both"}))
      ->default_str("double");
}

// `fem bench NAME`'s entry: `add(app, options)` describes the benchmark and declares its options,
// `run(options)` runs it once they are parsed. Returns the exit code (run_command).
template <class Options, class Add, class Run>
int run_benchmark(const std::string& name, int argc, char** argv, Add add, Run run) {
  CLI::App app("", "fem bench " + name);
  Options options;
  add(app, options);
  return run_command(app, argc, argv, [&] { run(options); });
}

// Writes the rows, all at once, and says where they went.
inline void write_rows(const CsvTable& rows, const std::string& path) {
  rows.write(path);
  std::printf("\nCSV: %s\n", path.c_str());
}

}  // namespace fem::bench
