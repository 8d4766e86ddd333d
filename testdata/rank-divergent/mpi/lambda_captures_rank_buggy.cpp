// A logging predicate captures the rank by value; the statistics reduction
// it guards runs on the even ranks only, and rank 0 waits for rank 1's
// contribution forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto logs_this_rank = [rank]() { return rank % 2 == 0; };
  double loss = 1.0 / (rank + 1), total = 0;
  if (logs_this_rank())
    MPI_Reduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  if (rank == 0)
    std::printf("total loss %f\n", total);
  MPI_Finalize();
  return 0;
}
