#include "bench/prepared/prepared_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_prepared_benchmark(argc, argv); }
