#include "bench/band/band_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_band_benchmark(argc, argv); }
