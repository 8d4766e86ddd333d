// The first half of the ranks compute; the helper's collectives use the
// communicator it is given. With every rank computing that is the world,
// otherwise a split whose members are exactly the computing ranks (the
// others pass MPI_UNDEFINED). Called only by the computing ranks, its
// barrier involves only them.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static double work(MPI_Comm comm, double local) {
  double sum = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Barrier(comm);
  return sum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int computing = rank < (size + 1) / 2;
  MPI_Comm comm;
  if (size == 1)
    comm = MPI_COMM_WORLD;
  else
    MPI_Comm_split(MPI_COMM_WORLD, computing ? 0 : MPI_UNDEFINED, rank, &comm);
  if (computing)
    std::printf("rank %d: sum %g\n", rank, work(comm, rank));
  if (comm != MPI_COMM_NULL && comm != MPI_COMM_WORLD)
    MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
