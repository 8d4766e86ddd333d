// A "rank 0 goes first" guard around a scope that itself issues a
// collective: the other ranks wait in the constructor's barrier while rank 0
// enters the all-reduce inside the scope, and rank 0 only reaches its
// barrier in the destructor. Over the guard's lifetime every rank issues one
// barrier, but not in the same order as the all-reduce: rank 0 waits in
// MPI_Allreduce, the others in MPI_Barrier.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

class RankZeroFirst {
public:
  explicit RankZeroFirst(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    if (rank_ != 0)
      MPI_Barrier(comm_); // expect: distlint-rank-divergent-collective
  }
  ~RankZeroFirst() {
    if (rank_ == 0)
      MPI_Barrier(comm_); // expect: distlint-rank-divergent-collective
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int entries = 0;
  {
    RankZeroFirst first(MPI_COMM_WORLD);
    int mine = 10;
    MPI_Allreduce(&mine, &entries, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  std::printf("entries %d\n", entries);
  MPI_Finalize();
  return 0;
}
