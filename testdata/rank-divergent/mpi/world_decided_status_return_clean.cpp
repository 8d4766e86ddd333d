// As rank_decided_status_return_buggy.cpp, but the status check fails on
// every rank or on none: it depends on the world size only (the checkpoint
// was written for an even number of ranks). With 2 ranks every rank loads
// it and all-reduces; with an odd world every rank returns.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static int load_checkpoint(int world_size, double *weight) {
  if (world_size % 2 == 1)
    return -1; // written for an even world
  *weight = 0.5;
  return 0;
}

static void train(int rank, int world_size) {
  double weight = 0;
  if (load_checkpoint(world_size, &weight) != 0) {
    std::fprintf(stderr, "rank %d: no checkpoint\n", rank);
    return;
  }
  MPI_Allreduce(MPI_IN_PLACE, &weight, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: weight %f\n", rank, weight);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  train(rank, size);
  MPI_Finalize();
  return 0;
}
