#include "bench/dense/dense_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_dense_benchmark(argc, argv); }
