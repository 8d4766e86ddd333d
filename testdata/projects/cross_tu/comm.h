// The project's distributed plumbing, declared here and defined in comm.cpp
// and backends.cpp: the trainers only see these declarations.
#pragma once
#include <mpi.h>

namespace xtu {

class Communicator {
public:
  explicit Communicator(MPI_Comm comm);
  int rank() const;
  int size() const;
  void allReduce(double *data, int count);
  void barrier();

private:
  MPI_Comm comm_;
};

/// The process's rank in the world (parsed once, cached).
int worldRank();

/// Every rank must call it: a reduction behind an interface with two
/// implementations (backends.cpp).
class Reducer {
public:
  virtual ~Reducer() = default;
  virtual void sum(double *data, int count) = 0;
};
Reducer *makeReducer(bool tree);

/// Ends the job on every rank (comm.cpp).
[[noreturn]] void fail(const char *why);

} // namespace xtu
