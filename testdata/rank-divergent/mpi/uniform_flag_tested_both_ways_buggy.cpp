// The twin of uniform_flag_tested_both_ways_clean: the sender tests the
// same flag the same way twice, so with the flag set it issues two barriers
// and the others one; the second barrier waits forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

namespace {
constexpr int kUnexpected = 1;
int buf[64];

void test_send(MPI_Comm comm, int rank, int src, int dst, int flag) {
  MPI_Request req;
  if (rank == src) {
    if (flag & kUnexpected)
      MPI_Barrier(comm);
    MPI_Isend(buf, 64, MPI_INT, dst, 7, comm, &req);
    if (flag & kUnexpected)
      MPI_Barrier(comm); // expect: distlint-rank-divergent-collective
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else if (rank == dst) {
    if (flag & kUnexpected)
      MPI_Barrier(comm);
    MPI_Irecv(buf, 64, MPI_INT, src, 7, comm, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else if (flag & kUnexpected) {
    MPI_Barrier(comm);
  }
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int flag = argc > 1 ? std::atoi(argv[1]) : kUnexpected;
  test_send(MPI_COMM_WORLD, rank, 0, size - 1, flag);
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
