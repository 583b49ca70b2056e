#pragma once
// The benchmark's child process: one case file through fem::run_pipeline, composed as `fem run`
// composes it on one host (HostExecutor), with the field files the benchmark asks for.
#include <filesystem>
#include <string>

namespace fem::bench {

// `write`: vtu (VTK's files where the build has VTK, else the JSON summary alone) or none.
// A solver this build or machine cannot run leaves its reason in unavailable.txt beside the case
// file and throws.
void run_single_case(const std::filesystem::path& case_file, const std::string& write);

}  // namespace fem::bench
