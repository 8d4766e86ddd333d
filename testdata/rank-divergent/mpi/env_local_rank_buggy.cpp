// The node-local rank read from the launcher's environment decides who
// prepares the node's scratch space - and who waits on the barrier.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const char *local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  const int local_rank = local ? std::stoi(local) : 0;
  if (local_rank == 0) {
    std::printf("preparing scratch space\n");
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  MPI_Finalize();
  return 0;
}
