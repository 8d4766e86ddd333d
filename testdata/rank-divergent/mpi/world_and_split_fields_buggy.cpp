// A struct holds two communicators: the world and a split of it. Only the
// field that every write fills from a split is a sub-communicator: the
// barrier on the world field under the colour branch leaves the ranks of
// the other colour out, while the all-reduce on the split field is fine.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

struct Comms {
  MPI_Comm world;
  MPI_Comm half;
};

static void make_comms(Comms *c, int rank) {
  c->world = MPI_COMM_WORLD;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c->half);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Comms comms;
  make_comms(&comms, rank);
  double value = 1.0, sum = 0;
  if (rank % 2 == 0) {
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, comms.half);
    MPI_Barrier(comms.world); // expect: distlint-rank-divergent-collective
  }
  std::printf("rank %d sum %g\n", rank, sum);
  MPI_Comm_free(&comms.half);
  MPI_Finalize();
  return 0;
}
