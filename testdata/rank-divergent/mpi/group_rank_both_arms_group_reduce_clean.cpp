// Row communicators of a process grid: each row reduces its partial sums
// to the row's first member. The row's root passes MPI_IN_PLACE and the
// others their own buffer, in two arms of a branch on the rank in the row:
// every member reaches one MPI_Reduce on the row communicator, and a
// barrier on it follows on every member.
// run: mpi clean ranks=4
#include <mpi.h>

#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm row = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &row);
  int row_rank = 0;
  MPI_Comm_rank(row, &row_rank);
  double partial = 1.0 + rank, total = 0.0;
  if (row_rank == 0) {
    total = partial;
    MPI_Reduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, 0, row);
  } else {
    MPI_Reduce(&partial, nullptr, 1, MPI_DOUBLE, MPI_SUM, 0, row);
  }
  if (row_rank == 0)
    std::printf("row %d: %.1f\n", rank / 2, total);
  MPI_Barrier(row);
  MPI_Comm_free(&row);
  MPI_Finalize();
  return 0;
}
