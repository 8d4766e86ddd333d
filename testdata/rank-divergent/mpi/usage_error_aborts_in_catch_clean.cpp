// Rank 0 parses the command line inside try/catch; a usage error is caught
// and aborts the whole job (MPI_Abort in a [[noreturn]] helper). An
// exception no handler catches would leave main and end the job too. On
// every path that goes on, rank 0 reaches the broadcast like the others.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

[[noreturn]] static void abort_job(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0, iterations = 3;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) {
    try {
      if (argc > 1 && std::atoi(argv[1]) < 0)
        throw std::invalid_argument("iterations must be >= 0");
      if (argc > 1)
        iterations = std::atoi(argv[1]);
    } catch (const std::invalid_argument &e) {
      std::fprintf(stderr, "usage: %s <iterations>: %s\n", argv[0], e.what());
      abort_job(1);
    }
  }
  MPI_Bcast(&iterations, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int iter = 0; iter <= iterations; iter++)
    if (iter == 1)
      MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d: %d iterations\n", me, iterations);
  MPI_Finalize();
  return 0;
}
