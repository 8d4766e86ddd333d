// A job for exactly two ranks: the world size comes from the wrapper
// (comm.cpp), and a job of another size ends at once on every rank. Each
// rank's arm then issues the same all-reduce, so every rank issues it once.
// Without the wrapper's body the size is unknown and the chain over ranks
// 0 and 1 seems to leave the other ranks out.
// run: mpi clean
#include "comm.h"

#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  xtu::Communicator comm(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (comm.size() != 2)
    xtu::fail("run this with exactly 2 ranks");
  double value = 1.0;
  if (rank == 0) {
    value = 10.0;
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  std::printf("sum %f\n", value);
  MPI_Finalize();
  return 0;
}
