#include "bench/spmv/spmv_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_spmv_benchmark(argc, argv); }
