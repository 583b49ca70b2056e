#include "bench/vtu/vtu_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_vtu_benchmark(argc, argv); }
