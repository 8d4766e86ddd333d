// An RMA-style test (with a posted send in place of the put): the origin
// synchronizes with the target by two
// barriers whose place depends on the flush mode, chosen once from the
// command line and checked to be one of the three modes. The origin tests
// the mode in an else-if chain and again later; every mode makes it issue
// the same two barriers as everyone else.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstring>

namespace {
enum FlushMode { FlushAll, FlushOne, FlushNone };

FlushMode parse_mode(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "one") == 0)
    return FlushOne;
  if (argc > 1 && std::strcmp(argv[1], "none") == 0)
    return FlushNone;
  return FlushAll;
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int mode = parse_mode(argc, argv);
  if (mode != FlushAll && mode != FlushOne && mode != FlushNone)
    MPI_Abort(MPI_COMM_WORLD, 1);
  int value = 0, target = size - 1;
  MPI_Request req = MPI_REQUEST_NULL;
  if (rank == target && rank != 0)
    MPI_Irecv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
  if (rank == 0) {
    int one = 1;
    if (target != 0)
      MPI_Isend(&one, 1, MPI_INT, target, 3, MPI_COMM_WORLD, &req);
    if (mode == FlushAll) {
      MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    } else if (mode == FlushOne) {
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    if (mode == FlushNone) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == target && rank != 0)
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (rank == target)
    std::printf("rank %d value %d\n", rank, value);
  MPI_Finalize();
  return 0;
}
