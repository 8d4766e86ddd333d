// As usage_error_aborts_in_catch_clean, but the handler only returns from
// main on rank 0: the other ranks wait in the broadcast forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0, iterations = 3;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) {
    try {
      if (argc < 5)
        throw std::invalid_argument("expected four arguments");
      iterations = std::atoi(argv[1]);
    } catch (const std::invalid_argument &e) {
      std::fprintf(stderr, "usage: %s: %s\n", argv[0], e.what());
      return 1;
    }
  }
  MPI_Bcast(&iterations, 1, MPI_INT, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d: %d iterations\n", me, iterations);
  MPI_Finalize();
  return 0;
}
