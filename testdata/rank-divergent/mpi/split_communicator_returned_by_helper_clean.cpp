// A helper splits off the even ranks and returns the new communicator by
// value; the odd ranks get MPI_COMM_NULL. Only the even ranks, its members,
// reduce on it, so the branch on the rank selects exactly the members.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static MPI_Comm make_leaders(int rank) {
  MPI_Comm leaders;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2 == 0 ? 0 : MPI_UNDEFINED, rank,
                 &leaders);
  return leaders;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm leaders = make_leaders(rank);
  double loss = rank, total = 0;
  if (rank % 2 == 0) {
    MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, leaders);
    MPI_Comm_free(&leaders);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("leaders' loss %f\n", total);
  MPI_Finalize();
  return 0;
}
