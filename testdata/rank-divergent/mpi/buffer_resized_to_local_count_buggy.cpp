// Each rank resizes its send buffer to the number of local samples it
// kept after filtering, then all-reduces size() elements: the counts
// differ, so the reduction truncates or hangs.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int kept = 0;
  for (int i = 0; i < 20 + rank; ++i)
    if (i % 3 != 0)
      ++kept;
  std::vector<float> stats;
  stats.resize(kept);
  for (size_t i = 0; i < stats.size(); ++i)
    stats[i] = 1.0f;
  MPI_Allreduce(MPI_IN_PLACE, stats.data(), static_cast<int>(stats.size()), // expect: distlint-rank-divergent-collective
                MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("%g\n", stats.empty() ? 0.0f : stats[0]);
  MPI_Finalize();
  return 0;
}
