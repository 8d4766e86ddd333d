// Error paths that end the whole job are crashes, not hangs: MPI_Abort,
// exit() and a throw that leaves main tear every rank down.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

static void check_input(int rank, int value) {
  if (rank == 0 && value < 0) {
    std::fprintf(stderr, "bad input %d\n", value);
    std::exit(2);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int value = argc > 5 ? -1 : 1;
  if (rank == 0 && argc > 6) {
    std::fprintf(stderr, "too many arguments\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  check_input(rank, value);
  if (rank == 1 && argc > 7)
    throw std::runtime_error("unsupported option");
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d value %d\n", rank, value);
  MPI_Finalize();
  return 0;
}
