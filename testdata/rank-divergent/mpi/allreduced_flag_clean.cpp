// Each rank looks at its own loss, but the decision to stop is agreed on
// first: the local flag goes through an all-reduce and every rank branches
// on the agreed value.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double loss = 4.0 + rank;
  for (int step = 0; step < 20; ++step) {
    loss *= rank == 0 ? 0.5 : 0.7;
    int diverged = loss > 100.0 || loss < 0.01;
    int any_diverged = 0;
    MPI_Allreduce(&diverged, &any_diverged, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_diverged) {
      MPI_Barrier(MPI_COMM_WORLD);
      break;
    }
    double global = 0;
    MPI_Allreduce(&loss, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  std::printf("rank %d loss %g\n", rank, loss);
  MPI_Finalize();
  return 0;
}
