// A helper hands out a duplicate of the world communicator through a
// pointer: every rank is a member of the copy (MPI_Comm_dup keeps the
// members of what it copies), so the barrier on it inside the even ranks'
// branch waits forever for the odd ones.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void private_world(MPI_Comm *out) { MPI_Comm_dup(MPI_COMM_WORLD, out); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm mine;
  private_world(&mine);
  if (rank % 2 == 0)
    MPI_Barrier(mine); // expect: distlint-rank-divergent-collective
  std::printf("rank %d done\n", rank);
  MPI_Comm_free(&mine);
  MPI_Finalize();
  return 0;
}
