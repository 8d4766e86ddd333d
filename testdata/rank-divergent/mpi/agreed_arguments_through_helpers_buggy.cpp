// A helper issues the all-reduce with the count it is given; its caller,
// through a second helper, passes a shard length that differs between
// ranks. Each rank then passes its own count to the same collective, which
// fails (or hangs) as if the count were written in place.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static float buf[4096];

static void reduce_n(int n) {
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
}

static void sync_shard(int shard_len) { reduce_n(shard_len); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  sync_shard(64 * (rank + 1));
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
