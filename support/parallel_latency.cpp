#include "support/parallel_latency.hpp"

#include <omp.h>

#include "support/stopwatch.hpp"

namespace fem {

double parallel_region_seconds(int regions) {
  volatile int sink = 0;
#pragma omp parallel
  sink = omp_get_thread_num();  // the thread pool exists before the clock starts
  const Stopwatch all;
  int done = 0;
  while (done < regions && (done < 4 || all.seconds() < 0.05)) {
#pragma omp parallel
    sink = omp_get_thread_num();
    ++done;
  }
  (void)sink;
  return all.seconds() / done;
}

}  // namespace fem
