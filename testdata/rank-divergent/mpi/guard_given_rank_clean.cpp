// A "rank 0 goes first" guard that is given the rank: its constructor stores
// it (rank_(rank)), and every construction passes the rank, so the member
// is the rank. Over the guard's lifetime each rank issues one barrier.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

class RankZeroFirst {
public:
  explicit RankZeroFirst(int rank) : rank_(rank) {
    if (rank_ != 0)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  ~RankZeroFirst() {
    if (rank_ == 0)
      MPI_Barrier(MPI_COMM_WORLD);
  }

private:
  int rank_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  {
    RankZeroFirst first(rank);
    if (rank == 0)
      std::printf("rank 0 prepares the cache\n");
  }
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("total %d\n", total);
  MPI_Finalize();
  return 0;
}
