// "Rank 0 goes first": the other ranks wait at a barrier until rank 0 has
// prepared the cache, then rank 0 joins them. The two barriers sit under
// different rank branches, but every rank issues exactly one.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void prepare_cache(int rank) {
  std::printf("rank %d: cache ready\n", rank);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0)
    MPI_Barrier(MPI_COMM_WORLD); // the others wait for rank 0
  prepare_cache(rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // rank 0 releases them
  double loss = 1.0 + rank, total = 0;
  MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
