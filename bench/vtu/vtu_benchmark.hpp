#pragma once

namespace fem::bench {

// The .vtu writer on a hex8 box's elasticity fields, once per compression; argv[0] is skipped.
int run_vtu_benchmark(int argc, char** argv);

}  // namespace fem::bench
