// Every rank all-reduces through the wrapper; only rank 0 prints, and the
// reduced loss (the same on every rank after the wrapper) decides the early
// stop, so all ranks leave the loop together. A negative loss ends the job
// on every rank (xtu::fail calls MPI_Abort in comm.cpp).
// run: mpi clean
#include "comm.h"

#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  xtu::Communicator comm(MPI_COMM_WORLD);
  for (int step = 0; step < 10; ++step) {
    double loss = 8.0 / (step + 1) + xtu::worldRank();
    comm.allReduce(&loss, 1);
    if (loss < 0)
      xtu::fail("loss went negative");
    if (xtu::worldRank() == 0)
      std::printf("step %d loss %f\n", step, loss);
    if (loss / comm.size() < 3.0)
      break;
    comm.barrier();
  }
  MPI_Finalize();
  return 0;
}
