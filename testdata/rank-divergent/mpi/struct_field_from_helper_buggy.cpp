// The helper splits the work unevenly: ranks past the remainder get an empty
// shard. Only ranks with a non-empty shard enter the all-reduce, so with
// one item and two ranks rank 1 skips it and rank 0 waits forever. The size
// field of the returned struct depends on the rank.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

struct Shard {
  long offset;
  long size;
};

static Shard shardOf(long items, int rank, int ranks) {
  Shard s;
  s.offset = rank * (items / ranks);
  s.size = items / ranks + (rank < items % ranks ? 1 : 0);
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Shard shard = shardOf(1, rank, ranks);
  double sum = 0;
  if (shard.size > 0)
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, // expect: distlint-rank-divergent-collective
                  MPI_COMM_WORLD);
  std::printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}
