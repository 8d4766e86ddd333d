// Gradients reduced through the xtu::Reducer interface, whose two
// implementations (backends.cpp) both issue collectives: rank 0 skips the
// reduction and waits in the barrier while the others wait in the
// reduction.
// run: mpi buggy
#include "comm.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  xtu::Reducer *reducer = xtu::makeReducer(argc > 1);
  double grads[4] = {1.0, 2.0, 3.0, 4.0};
  if (rank != 0)
    reducer->sum(grads, 4); // expect: distlint-rank-divergent-collective
  MPI_Barrier(MPI_COMM_WORLD);
  delete reducer;
  MPI_Finalize();
  return 0;
}
