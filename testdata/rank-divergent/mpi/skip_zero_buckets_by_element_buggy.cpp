// Gradient buckets are all-reduced one by one, skipping the ones whose
// first entry is still zero. Which buckets are zero is each rank's own
// data: rank 0's first bucket is zero, the others' is not, so the ranks
// issue different numbers of all-reduces.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<std::vector<float>> buckets(4, std::vector<float>(8, 1.0f));
  buckets[0][0] = static_cast<float>(rank); // only the first bucket differs
  int reduced = 0;
  for (auto &bucket : buckets) {
    if (bucket[0] == 0.0f)
      continue;
    MPI_Allreduce(MPI_IN_PLACE, bucket.data(), 8, MPI_FLOAT, MPI_SUM, // expect: distlint-rank-divergent-collective
                  MPI_COMM_WORLD);
    ++reduced;
  }
  int total = 0;
  MPI_Allreduce(&reduced, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d reduced %d buckets (%d in all)\n", rank, reduced, total);
  MPI_Finalize();
  return 0;
}
