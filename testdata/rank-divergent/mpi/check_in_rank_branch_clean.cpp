// Rank 0 alone reads the configuration and checks it; a failed check ends
// the whole job (MPI_Abort, exit), so the collectives that follow are reached
// by every rank that is still running. The broadcast then gives every rank
// rank 0's step count.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(cond, msg)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "check failed: %s\n", msg);                         \
      MPI_Abort(MPI_COMM_WORLD, 1);                                            \
    }                                                                          \
  } while (0)

static int read_steps(int argc, char **argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 3;
  if (steps <= 0) {
    std::fprintf(stderr, "steps must be positive\n");
    std::exit(2);
  }
  return steps;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int steps = 0;
  if (rank == 0) {
    steps = read_steps(argc, argv);
    CHECK(steps < 1000, "too many steps");
  }
  MPI_Bcast(&steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double value = rank + 1.0, sum = 0;
  for (int i = 0; i < steps; ++i)
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: sum %g after %d steps\n", rank, sum, steps);
  MPI_Finalize();
  return 0;
}
