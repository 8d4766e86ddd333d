// Error handling in the style of C MPI codes: every call's status is checked
// and a failure leaves (return, goto cleanup, break out of the loop). A
// failed status check means the job is broken whichever rank hits it, like
// MPI_Abort; it is not a rank-divergent early exit, and the collectives
// after it (also those under command-line options) are reached by every
// rank that is still healthy.
// run: mpi clean
#include <mpi.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

#define MPI_TRY(call)                                                          \
  do {                                                                         \
    int err_ = (call);                                                         \
    if (err_ != MPI_SUCCESS)                                                   \
      return err_;                                                             \
  } while (0)

static int exchange_halo(double *halo, int count, int rank, MPI_Comm comm) {
  MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, halo, count, MPI_DOUBLE, MPI_SUM, comm));
  if (rank == 0)
    halo[0] += 1.0;
  MPI_TRY(MPI_Bcast(halo, count, MPI_DOUBLE, 0, comm));
  return MPI_SUCCESS;
}

static int make_output_dir(int rank) {
  char path[64];
  std::snprintf(path, sizeof(path), "/tmp/distlint-out-%d", rank);
  if (mkdir(path, 0755) != 0 && errno != EEXIST)
    return -1;
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int steps = argc > 1 ? std::atoi(argv[1]) : 3;
  const bool verbose = argc > 2;

  if (make_output_dir(rank) != 0) {
    std::fprintf(stderr, "rank %d: cannot create its output directory\n", rank);
    return 1;
  }

  double *halo = static_cast<double *>(std::calloc(8, sizeof(double)));
  if (halo == NULL)
    goto cleanup;
  for (int step = 0; step < steps; ++step) {
    halo[rank % 8] = step;
    if (exchange_halo(halo, 8, rank, MPI_COMM_WORLD) != MPI_SUCCESS)
      break;
    if (verbose)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS)
    goto cleanup;
  for (int thread = 0; thread < 4; ++thread)
    if (thread == steps % 4)
      MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("halo[0] = %g\n", halo[0]);

cleanup:
  std::free(halo);
  MPI_Finalize();
  return 0;
}
