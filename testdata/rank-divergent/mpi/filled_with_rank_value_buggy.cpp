// The twin of filled_with_rank_value_clean.cpp where the rank sets the
// buffer's length, not only its contents (std::vector<size_t>(rank + 1,
// 7): the first argument is the count even when the element type is
// size_t): the ranks reduce different numbers of elements.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<size_t> counts(rank + 1, 7);
  MPI_Allreduce(MPI_IN_PLACE, counts.data(), (int)counts.size(), // expect: distlint-rank-divergent-collective
                MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: %zu\n", rank, counts[0]);
  MPI_Finalize();
  return 0;
}
