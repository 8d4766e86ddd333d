// As in an MPI test suite that builds one program per mode: the flush mode
// is set once from a build-time switch, and the origin's barriers sit in
// if-chains on it. The mode is one known constant, so only the arms it
// takes count: every rank issues two barriers.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

#ifndef FLUSH_MODE_ONE
#define FLUSH_MODE_ONE 1
#endif

int main(int argc, char **argv) {
  enum { FlushNone, FlushOne, FlushAll } mode;
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#if FLUSH_MODE_ONE
  mode = FlushOne;
#else
  mode = FlushAll;
#endif
  if (rank == 0) {
    if (mode == FlushAll) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    } else if (mode == FlushOne) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    if (mode == FlushNone) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::printf("rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
