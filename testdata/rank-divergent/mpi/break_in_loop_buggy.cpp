// Rank 1 stops after three iterations; rank 0 goes on to the next
// all-reduce alone.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double loss = 1.0;
  for (int iter = 0; iter < 10; ++iter) {
    if (rank == 1 && iter == 3)
      break;
    double local = loss / (iter + 1);
    MPI_Allreduce(&local, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  std::printf("rank %d loss %g\n", rank, loss);
  MPI_Finalize();
  return 0;
}
