// A helper hands the ranks outside a sub-communicator MPI_COMM_NULL (the
// way test suites iterate over communicators); `if (comm ==
// MPI_COMM_NULL) continue;` leaves exactly the members, which all reduce
// on that communicator. The world barrier after the loop is reached by
// every rank.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

// Communicator number `which`: the even ranks, or every rank.
static bool next_comm(int which, MPI_Comm *comm) {
  if (which >= 2)
    return false;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (which == 0)
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2 == 0 ? 0 : MPI_UNDEFINED, rank,
                   comm);
  else
    MPI_Comm_dup(MPI_COMM_WORLD, comm);
  return true;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm comm;
  for (int which = 0; next_comm(which, &comm); ++which) {
    if (comm == MPI_COMM_NULL)
      continue;
    int value = rank, sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm);
    std::printf("rank %d comm %d sum %d\n", rank, which, sum);
    MPI_Comm_free(&comm);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
