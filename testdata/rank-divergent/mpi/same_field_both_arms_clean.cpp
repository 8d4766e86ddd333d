// Both arms of the rank branch size the reduction from the broadcast
// configuration: rank 0 also logs it, the others do not. The count is the
// same expression over the same agreed value on every rank.
// run: mpi clean
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
  if (rank == 0) {
    rows = cfg.vocab;
    std::printf("rank 0: reducing %d rows\n", rows);
  } else {
    rows = cfg.vocab;
  }
  float sums[16] = {1.0f};
  MPI_Allreduce(MPI_IN_PLACE, sums, rows, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: %g\n", rank, sums[0]);
  MPI_Finalize();
  return 0;
}
