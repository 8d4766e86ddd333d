// Every rank reaches the all-reduce, but the element count is derived from
// the rank: the ranks disagree on the message size.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int histogram[64] = {0}, merged[64] = {0};
  const int classes = 8 + 8 * rank; // this shard saw more classes
  for (int c = 0; c < classes; ++c)
    histogram[c] = c;
  MPI_Allreduce(histogram, merged, classes, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d merged[7] = %d\n", rank, merged[7]);
  MPI_Finalize();
  return 0;
}
