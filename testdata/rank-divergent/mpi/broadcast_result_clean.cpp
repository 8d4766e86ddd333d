// Only rank 0 knows how many epochs to run, but it broadcasts the number
// before anyone loops on it; a copy of the broadcast value stays uniform.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static int epochs_from_config() { return 3; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int epochs = 0;
  if (rank == 0)
    epochs = epochs_from_config();
  MPI_Bcast(&epochs, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const int planned = epochs;
  double acc = 0, sum = 0;
  for (int e = 0; e < planned; ++e) {
    acc += 0.1 * (rank + 1);
    MPI_Allreduce(&acc, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (epochs > 2)
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d sum %g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
