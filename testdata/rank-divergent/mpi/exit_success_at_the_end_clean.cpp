// Research-kernel style: rank 0 parses the iteration count and broadcasts
// it, a barrier marks the start of the timed iterations, and main ends with
// exit(EXIT_SUCCESS) after MPI_Finalize. That exit is the program's normal
// end, not a job abort: the uniform `iter == 1` branch stays uniform.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0, iterations = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0)
    iterations = argc > 1 ? std::atoi(argv[1]) : 3;
  MPI_Bcast(&iterations, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double local = 1.0 + me, total = 0.0;
  for (int iter = 0; iter <= iterations; iter++) {
    if (iter == 1)
      MPI_Barrier(MPI_COMM_WORLD); // start the timer after a warm-up
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  if (me == 0)
    std::printf("total %g after %d iterations\n", total, iterations);
  MPI_Finalize();
  std::exit(EXIT_SUCCESS);
}
