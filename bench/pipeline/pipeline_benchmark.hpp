#pragma once

namespace fem::bench {

// `fem bench pipeline`: fem run's phases on cubes of growing size; argv[0] is skipped.
int run_pipeline_benchmark(int argc, char** argv);

}  // namespace fem::bench
