// Both rank classes make the same uniform choice (the step count is the same
// everywhere), so they reduce together or not at all.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = argc > 1 ? std::atoi(argv[1]) : 4;
  double local = rank, total = 0;
  if (rank == 0) {
    local *= 2;
    if (n % 2)
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else {
    if (n % 2)
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  for (int i = 0; i < n; ++i) {
    if (rank == 0)
      MPI_Bcast(&local, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    else
      MPI_Bcast(&total, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d total %g\n", rank, total);
  MPI_Finalize();
  return 0;
}
