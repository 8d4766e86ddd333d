// MPI_IN_PLACE at the root of a gather / scatter: the root's own send (or
// receive) count and type are not read by MPI, so passing 0 and
// MPI_DATATYPE_NULL there while the others pass the real count is correct,
// whether the two calls sit in the arms of a rank branch or one call
// chooses its arguments by the rank.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 16)
    MPI_Abort(MPI_COMM_WORLD, 1);
  int local[4] = {rank, rank, rank, rank};
  int all[64] = {0};
  if (rank == 0) {
    for (int i = 0; i < 4; ++i)
      all[i] = 0;
    MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 4, MPI_INT, 0,
               MPI_COMM_WORLD);
  } else {
    MPI_Gather(local, 4, MPI_INT, nullptr, 0, MPI_DATATYPE_NULL, 0,
               MPI_COMM_WORLD);
  }
  MPI_Gather(rank == 0 ? MPI_IN_PLACE : local, rank == 0 ? 0 : 4, MPI_INT, all,
             4, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatter(all, 4, MPI_INT, rank == 0 ? MPI_IN_PLACE : local,
              rank == 0 ? 0 : 4, MPI_INT, 0, MPI_COMM_WORLD);
  std::printf("rank %d got %d\n", rank, local[0]);
  MPI_Finalize();
  return 0;
}
