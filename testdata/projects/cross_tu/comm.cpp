// Defines the wrappers the trainers call: analyzed alone, a trainer sees
// only their declarations in comm.h.
#include "comm.h"

#include <cstdio>
#include <cstdlib>

namespace xtu {

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {}

int Communicator::rank() const {
  int r = 0;
  MPI_Comm_rank(comm_, &r);
  return r;
}

int Communicator::size() const {
  int s = 1;
  MPI_Comm_size(comm_, &s);
  return s;
}

void Communicator::allReduce(double *data, int count) {
  MPI_Allreduce(MPI_IN_PLACE, data, count, MPI_DOUBLE, MPI_SUM, comm_); // expect-note: 'allReduce' issues 'MPI_Allreduce' here
}

void Communicator::barrier() { MPI_Barrier(comm_); }

int worldRank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void fail(const char *why) {
  std::fprintf(stderr, "fatal: %s\n", why);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

} // namespace xtu
