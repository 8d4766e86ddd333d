// As same_field_both_arms_clean, but the arms size the reduction from two
// different fields of the agreed configuration: rank 0 reduces `vocab`
// elements, the others `hidden`. The counts differ, so the ranks
// disagree on the message size and the run fails or hangs.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

struct Config {
  int vocab;
  int hidden;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Config cfg = {0, 0};
  if (rank == 0)
    cfg = Config{8, 4 + argc};
  MPI_Bcast(&cfg, sizeof(cfg), MPI_BYTE, 0, MPI_COMM_WORLD);
  int rows;
  if (rank == 0)
    rows = cfg.vocab;
  else
    rows = cfg.hidden;
  float sums[16] = {1.0f};
  MPI_Allreduce(MPI_IN_PLACE, sums, rows, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d: %g\n", rank, sums[0]);
  MPI_Finalize();
  return 0;
}
