// The communicator is chosen by the world size, which every rank knows
// alike, so all ranks wait on the same barrier.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm compute, io;
  MPI_Comm_dup(MPI_COMM_WORLD, &compute);
  MPI_Comm_dup(MPI_COMM_WORLD, &io);
  MPI_Comm &mine = size > 8 ? io : compute;
  MPI_Barrier(mine);
  std::printf("rank %d passed the barrier\n", rank);
  MPI_Comm_free(&io);
  MPI_Comm_free(&compute);
  MPI_Finalize();
  return 0;
}
