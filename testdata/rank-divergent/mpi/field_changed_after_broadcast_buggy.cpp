// As field_agreed_by_broadcast_clean, but each rank caps the agreed count
// at what its own buffer holds after the broadcast: rank 0 caps it to 0 and
// skips the list, while the others wait in a broadcast it never issues.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

struct Params {
  int count;
  int values[8];
};

static void read_params(Params *params, int rank, MPI_Comm comm) {
  if (rank == 0)
    params->count = 3;
  MPI_Bcast(&params->count, 1, MPI_INT, 0, comm);
  if (params->count > 2 * rank)
    params->count = 2 * rank; // what this rank's buffer holds
  if (params->count > 0)
    MPI_Bcast(params->values, params->count, MPI_INT, 0, comm); // expect: distlint-rank-divergent-collective
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Params params = {0, {0}};
  read_params(&params, rank, MPI_COMM_WORLD);
  std::printf("rank %d: %d values\n", rank, params.count);
  MPI_Finalize();
  return 0;
}
