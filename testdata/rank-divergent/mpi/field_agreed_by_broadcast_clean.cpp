// Rank 0 reads the parameters; the count is broadcast through the pointer
// the helper was given, and the optional list is broadcast only when the
// (now agreed) count says there is one. Every rank takes the same branch.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

struct Params {
  int count;
  int values[8];
};

static void read_params(Params *params, int rank, MPI_Comm comm) {
  if (rank == 0) {
    params->count = 3;
    for (int i = 0; i < params->count; ++i)
      params->values[i] = 10 * i;
  }
  MPI_Bcast(&params->count, 1, MPI_INT, 0, comm);
  if (params->count > 0)
    MPI_Bcast(params->values, params->count, MPI_INT, 0, comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Params params = {0, {0}};
  read_params(&params, rank, MPI_COMM_WORLD);
  std::printf("rank %d: %d values, last %d\n", rank, params.count,
              params.values[params.count - 1]);
  MPI_Finalize();
  return 0;
}
