// The same failed-shard check as error_paths_reported/, under the default
// options: a status compared with success, then return, is an error path
// (the job is broken either way), not a rank-divergent early exit. Every
// rank here finds its shard, so the program finishes.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static int open_shard(int rank, FILE **out) {
  char path[64];
  std::snprintf(path, sizeof(path), "/dev/null");
  (void)rank;
  *out = std::fopen(path, "r");
  return *out ? 0 : -1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  FILE *shard = nullptr;
  if (open_shard(rank, &shard) != 0) {
    std::fprintf(stderr, "rank %d: no shard\n", rank);
    return 1;
  }
  int records = 1;
  MPI_Allreduce(MPI_IN_PLACE, &records, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::fclose(shard);
  MPI_Finalize();
  return 0;
}
