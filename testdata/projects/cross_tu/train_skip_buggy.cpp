// Only rank 0 all-reduces the loss, through the project's own wrapper
// (comm.cpp): the other ranks go on to the barrier and the job hangs. The
// wrapper's body, the rank helper's and the barrier's are in another file;
// analyzed alone this file shows no collective at all.
// run: mpi buggy
#include "comm.h"

#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  xtu::Communicator comm(MPI_COMM_WORLD);
  double loss = 1.0 + comm.rank();
  for (int step = 0; step < 3; ++step) {
    if (comm.rank() == 0)
      comm.allReduce(&loss, 1); // expect: distlint-rank-divergent-collective
    comm.barrier();
  }
  std::printf("loss %f\n", loss);
  MPI_Finalize();
  return 0;
}
