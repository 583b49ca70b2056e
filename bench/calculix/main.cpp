#include "bench/calculix/calculix_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_calculix_benchmark(argc, argv); }
