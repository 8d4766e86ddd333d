// A header-only MPI communicator wrapper of a made-up finite-element
// library, in the style of such libraries: the rank and size are members
// filled by MPI in the constructor, collectives are small inline templates.
#ifndef MESHLIB_PARALLEL_H
#define MESHLIB_PARALLEL_H

#include <mpi.h>

namespace meshlib {
namespace parallel {

class Communicator {
public:
  explicit Communicator(MPI_Comm comm = MPI_COMM_WORLD) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  unsigned int rank() const { return static_cast<unsigned int>(rank_); }
  unsigned int size() const { return static_cast<unsigned int>(size_); }
  MPI_Comm get() const { return comm_; }

  void barrier() const { MPI_Barrier(comm_); }

  template <typename T> void broadcast(T &value, unsigned int root = 0) const {
    MPI_Bcast(&value, static_cast<int>(sizeof(T)), MPI_BYTE,
              static_cast<int>(root), comm_);
  }

  void max(int &value) const {
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MAX, comm_);
  }

  // Library code with its own rank-conditional collective: distlint
  // learns from library bodies but never reports in them.
  void verbose_sync(bool verbose) const {
    if (verbose && rank_ == 0)
      MPI_Barrier(comm_);
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

} // namespace parallel
} // namespace meshlib

#endif
