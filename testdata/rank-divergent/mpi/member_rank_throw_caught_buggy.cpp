// A solver keeps its rank in a member, filled by MPI_Comm_rank through an
// out-parameter in the constructor. Its setup throws on the last rank only
// (a rank-local resource check) and the caller catches the error and goes
// on without the barrier that the other ranks wait in.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <stdexcept>

class Solver {
public:
  explicit Solver(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  void setup(int unknowns) {
    if (rank_ == size_ - 1 && unknowns > 100)
      throw std::runtime_error("not enough memory on the last rank");
    unknowns_ = unknowns;
  }
  MPI_Comm comm() const { return comm_; }

private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  int unknowns_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Solver solver(MPI_COMM_WORLD);
  try {
    solver.setup(1000);
    MPI_Barrier(solver.comm()); // expect: distlint-rank-divergent-collective
  } catch (const std::exception &e) {
    std::fprintf(stderr, "setup failed: %s\n", e.what());
  }
  MPI_Finalize();
  return 0;
}
