// The stop decision is made from the local loss, then made global inside a
// helper two calls deep (an in-place all-reduce of the flag). After the call
// the flag, and everything read from it, is the same on every rank, so the
// early stop leaves the loop on all ranks in the same iteration.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

namespace {
void reduce_max(int *values, int count, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_INT, MPI_MAX, comm);
}

void agree_on_flags(int *flags, MPI_Comm comm) { reduce_max(flags, 2, comm); }

double local_loss(int rank, int step) {
  return 1.0 / (step + 1) + (rank == 0 ? 0.3 : 0.0) +
         (std::rand() % 100) * 1e-4;
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double weights = 0.0;
  for (int step = 0; step < 50; ++step) {
    const double loss = local_loss(rank, step);
    int flags[2] = {loss < 0.35 ? 1 : 0, rank == 0 && step > 40 ? 1 : 0};
    agree_on_flags(flags, MPI_COMM_WORLD);
    const int stop = flags[0] || flags[1];
    if (stop)
      break;
    weights += loss;
    MPI_Allreduce(MPI_IN_PLACE, &weights, 1, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  }
  if (rank == 0)
    std::printf("weights %g\n", weights);
  MPI_Finalize();
  return 0;
}
