#include "bench/renumber/renumber_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_renumber_benchmark(argc, argv); }
