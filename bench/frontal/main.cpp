#include "bench/frontal/frontal_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_frontal_benchmark(argc, argv); }
