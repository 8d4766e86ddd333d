// Rank 0 writes its decisions into elements of a flag buffer every rank
// allocated with the same length (std::vector, a plain array); writing an
// element under `rank == 0` changes the contents on rank 0 only, not the
// length, so every rank reduces the same number of elements.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> flags(4, 0);
  int limits[3] = {0, 0, 0};
  if (rank == 0) {
    flags[0] = argc > 1;
    limits[2] = 10;
  }
  MPI_Allreduce(MPI_IN_PLACE, flags.data(), (int)flags.size(), MPI_INT,
                MPI_MAX, MPI_COMM_WORLD);
  MPI_Bcast(limits, 3, MPI_INT, 0, MPI_COMM_WORLD);
  std::printf("rank %d: %d %d\n", rank, flags[0], limits[2]);
  MPI_Finalize();
  return 0;
}
