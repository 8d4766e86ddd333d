// As membership_asked_through_accessor_clean, but the accessor the gather
// is guarded by tests the world size, not the membership: every rank of a
// world of two or more calls the gather, and the odd ranks, not members,
// call it with MPI_COMM_NULL and the job fails.
// run: mpi buggy
#include <cstdio>
#include <mpi.h>
#include <vector>

class ProcessGrid {
public:
  ProcessGrid(int rank, int size) : rank_(rank), size_(size) {
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2 == 0 ? 0 : MPI_UNDEFINED, rank,
                   &leaders_);
  }
  ~ProcessGrid() {
    if (leaders_ != MPI_COMM_NULL)
      MPI_Comm_free(&leaders_);
  }
  bool leads() const { return size_ > 1; }
  int size() const { return size_; }

  /// The even ranks; MPI_COMM_NULL on the others.
  MPI_Comm leaders_ = MPI_COMM_NULL;

private:
  int rank_ = 0, size_ = 1;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    ProcessGrid grid(rank, size);
    double row_sum = 1.5 * rank;
    if (grid.leads()) {
      int members = 0;
      members = grid.size();
      std::vector<double> sums(members);
      MPI_Gather(&row_sum, 1, MPI_DOUBLE, sums.data(), 1, MPI_DOUBLE, 0, // expect: distlint-rank-divergent-collective
                 grid.leaders_);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("gathered on %d ranks\n", grid.size());
  } // The grid frees its communicator before MPI_Finalize.
  MPI_Finalize();
  return 0;
}
