// Command-line arguments are the same on every rank (the launcher passes
// one command line to all of them).
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int epochs = argc > 1 ? std::atoi(argv[1]) : 2;
  const bool extra_sync = argc > 2 && std::strcmp(argv[2], "--sync") == 0;
  for (int e = 0; e < epochs; ++e)
    MPI_Barrier(MPI_COMM_WORLD);
  if (extra_sync)
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("ran %d epochs\n", epochs);
  MPI_Finalize();
  return 0;
}
