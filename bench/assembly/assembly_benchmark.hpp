#pragma once

namespace fem::bench {

// `fem bench assembly`: colouring against per-thread buffers; argv[0] is skipped.
int run_assembly_benchmark(int argc, char** argv);

}  // namespace fem::bench
