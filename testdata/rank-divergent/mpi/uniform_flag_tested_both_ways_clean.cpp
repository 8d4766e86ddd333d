// A point-to-point test in the style of an MPI test suite: the sender and
// the receiver place their barrier before or after posting, by a flag that
// every rank iterates alike, tested once as `!(flag & kUnexpected)` and once
// as `flag & kUnexpected`; the bystanders issue the one barrier directly.
// Every rank issues exactly one barrier per flag value.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

namespace {
constexpr int kUnexpected = 1;
constexpr int kSynchronous = 2;
int buf[64];

int test_send(MPI_Comm comm, int rank, int src, int dst, int flag) {
  MPI_Request req;
  int errs = 0;
  if (rank == src) {
    for (int i = 0; i < 64; ++i)
      buf[i] = i;
    if (!(flag & kUnexpected))
      MPI_Barrier(comm);
    if (flag & kSynchronous)
      MPI_Issend(buf, 64, MPI_INT, dst, 7, comm, &req);
    else
      MPI_Isend(buf, 64, MPI_INT, dst, 7, comm, &req);
    if (flag & kUnexpected)
      MPI_Barrier(comm);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else if (rank == dst) {
    if (flag & kUnexpected)
      MPI_Barrier(comm);
    MPI_Irecv(buf, 64, MPI_INT, src, 7, comm, &req);
    if ((flag & kUnexpected) == 0)
      MPI_Barrier(comm);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < 64; ++i)
      errs += buf[i] != i;
  } else {
    MPI_Barrier(comm);
  }
  return errs;
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, errs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int dst = 1; dst < size; ++dst)
    for (int flag = 0; flag <= (kUnexpected | kSynchronous); ++flag)
      errs += test_send(MPI_COMM_WORLD, rank, 0, dst, flag);
  if (rank == 0)
    std::printf("errors: %d\n", errs);
  MPI_Finalize();
  return 0;
}
