// The root broadcasts the step size as a double, the others receive an int:
// the datatypes at the same position disagree (Open MPI reports a truncated
// message and aborts the job).
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

struct Schedule {
  double lr = 0.5;
  int lr_milli = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Schedule s;
  if (rank == 0) {
    MPI_Bcast(&s.lr, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  } else {
    MPI_Bcast(&s.lr_milli, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d lr %g\n", rank, s.lr);
  MPI_Finalize();
  return 0;
}
