// Odd ranks wait on the barrier first, even ranks on the all-reduce first:
// each class blocks in a collective the other never enters at that point.
// Both arms issue the same two collectives, only in another order.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int a = rank, b = 0;
  if (rank % 2) { // expect-note: branch depends on rank
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // expect-note: rank class B issues 'MPI_Allreduce' here instead
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::printf("rank %d sum %d\n", rank, b);
  MPI_Finalize();
  return 0;
}
