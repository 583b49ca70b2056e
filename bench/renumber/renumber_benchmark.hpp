#pragma once

namespace fem::bench {

// `fem bench renumber`: every renumbering method on case meshes and boxes; argv[0] is skipped.
int run_renumber_benchmark(int argc, char** argv);

}  // namespace fem::bench
