#include "bench/pipeline/pipeline_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_pipeline_benchmark(argc, argv); }
