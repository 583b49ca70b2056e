#pragma once
// A study's folder: compare.csv, compare.json, report.md and the PNG plots, written all at
// once (nothing half-written is left if anything fails), with the table on the terminal.
#include <filesystem>
#include <iosfwd>
#include <vector>

#include "fem/study/study_result.hpp"

namespace fem::study {

std::vector<std::filesystem::path> write_study(const StudyResult& result, const std::filesystem::path& directory,
                                               std::ostream& log);

// Only compare.csv and compare.json, quietly: the checkpoint a long sweep leaves after each size,
// so that an interrupted one keeps what it measured (`fem report` draws the rest from it). Where
// the folder holds an earlier run of the same study, its rows of the sizes not measured again yet
// are kept in the checkpoint: an interrupted re-run loses none of them.
void write_study_checkpoint(const StudyResult& result, const std::filesystem::path& directory);

}  // namespace fem::study
