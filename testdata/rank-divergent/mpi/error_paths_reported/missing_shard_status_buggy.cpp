// With ReportErrorPathDivergence (see .distlint.yaml here), a failed status
// check that leaves before a collective is reported like any early exit.
// Here the status really differs: only rank 0 finds its shard file, rank 1
// returns from main and rank 0 waits in the all-reduce (Open MPI then aborts
// the job because a process ended without MPI_Finalize).
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static int open_shard(int rank, FILE **out) {
  char path[64];
  std::snprintf(path, sizeof(path), rank == 0 ? "/dev/null" : "/nonexistent/%d",
                rank);
  *out = std::fopen(path, "r");
  return *out ? 0 : -1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  FILE *shard = nullptr;
  if (open_shard(rank, &shard) != 0) { // expect-note: branch depends on rank
    std::fprintf(stderr, "rank %d: no shard\n", rank);
    return 1;
  }
  int records = 1;
  MPI_Allreduce(MPI_IN_PLACE, &records, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::fclose(shard);
  MPI_Finalize();
  return 0;
}
