// Two duplicates of the world communicator, one per "stream" of work; the
// stream is picked by rank, so rank 0 waits on one communicator's barrier and
// the others on the other's. Both have every rank as a member: nobody
// completes.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

struct Streams {
  MPI_Comm compute, io;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Streams s;
  MPI_Comm_dup(MPI_COMM_WORLD, &s.compute);
  MPI_Comm_dup(MPI_COMM_WORLD, &s.io);
  MPI_Comm &mine = rank < 1 ? s.io : s.compute;
  MPI_Barrier(mine); // expect: distlint-rank-divergent-collective
  std::printf("rank %d passed the barrier\n", rank);
  MPI_Comm_free(&s.io);
  MPI_Comm_free(&s.compute);
  MPI_Finalize();
  return 0;
}
