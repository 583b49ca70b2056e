#include "bench/assembly/assembly_benchmark.hpp"

int main(int argc, char** argv) { return fem::bench::run_assembly_benchmark(argc, argv); }
