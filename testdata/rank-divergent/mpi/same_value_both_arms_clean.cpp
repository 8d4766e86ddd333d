// The chunk count is set under a rank branch (the first process also logs),
// but every arm leaves it with the same constant: the loop runs the same
// number of times everywhere. The message buffer differs per rank, its
// length does not.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstring>

static const int kChunks = 3;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int chunks;
  int width = 4;
  char tag[16];
  if (rank == 0) {
    std::printf("coordinator: %d chunks\n", kChunks);
    chunks = kChunks;
    std::strcpy(tag, "coordinator");
  } else {
    chunks = kChunks;
    width = 4;
    std::strcpy(tag, "worker");
  }
  double buffer[4] = {0, 0, 0, 0};
  for (int chunk = 0; chunk < chunks; ++chunk) {
    buffer[chunk % 4] = chunk + rank;
    MPI_Allreduce(MPI_IN_PLACE, buffer, width, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  }
  std::printf("%s: %g\n", tag, buffer[0]);
  MPI_Finalize();
  return 0;
}
