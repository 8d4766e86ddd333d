// Helpers issue the collective with the count, root or reduction they are
// given; their callers pass values that differ between ranks, through one
// helper or two, or a vector whose length differs. Each rank then passes its
// own count or root to the same collective, which hangs (or mixes messages)
// as if written in place.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

static float buf[4096];

static void reduce_n(int n) {
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
}

static void bcast_from(int root) {
  MPI_Bcast(buf, 16, MPI_FLOAT, root, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
}

static void sync_shard(int shard_len) { reduce_n(shard_len); }

static void push(std::vector<float> &grads) {
  MPI_Allreduce(MPI_IN_PLACE, grads.data(), (int)grads.size(), MPI_FLOAT, // expect: distlint-rank-divergent-collective
                MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  sync_shard(64 * (rank + 1));
  bcast_from(rank);
  std::vector<float> local(16 * (rank + 1), 1.0f); // A length per rank.
  push(local);
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
