// Rank 0 records one more key in a std::map (operator[] inserts it), and
// every rank sizes its histogram from the map: rank 0's histogram has one
// element more, and the ranks reduce different counts.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <map>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::map<int, int> seen;
  seen[1] = 1;
  if (rank == 0)
    seen[7] = 1;
  std::vector<int> histogram(seen.size(), 0);
  MPI_Allreduce(MPI_IN_PLACE, histogram.data(), (int)histogram.size(), // expect: distlint-rank-divergent-collective
                MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: %zu\n", rank, histogram.size());
  MPI_Finalize();
  return 0;
}
