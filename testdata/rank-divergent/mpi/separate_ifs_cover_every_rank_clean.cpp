// Three separate rank tests that together cover every rank: each rank
// issues exactly one barrier (the first one through a flag that holds the
// test), and rank 1 alone does an extra local step.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool is_root = rank == 0;
  if (is_root)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    std::printf("rank 1 checks the inputs\n");
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank > 1)
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
