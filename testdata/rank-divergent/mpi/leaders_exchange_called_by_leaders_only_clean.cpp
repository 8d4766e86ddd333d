// Two-level gradient averaging: each pair of ranks reduces onto its first
// rank, and the first ranks of the pairs form a "leaders" communicator (the
// others pass MPI_UNDEFINED and get MPI_COMM_NULL). The exchange between
// the leaders sits in a helper that only the first rank of each pair calls:
// the condition that chose the colour also guards the call.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <vector>

class TwoLevelReducer {
public:
  explicit TwoLevelReducer(int group_size) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_split(MPI_COMM_WORLD, rank_ / group_size, rank_, &group_);
    MPI_Comm_rank(group_, &group_rank_);
    const int color = group_rank_ == 0 ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank_, &leaders_);
  }
  ~TwoLevelReducer() {
    MPI_Comm_free(&group_);
    if (leaders_ != MPI_COMM_NULL)
      MPI_Comm_free(&leaders_);
  }
  void average(std::vector<float> &grad) {
    const int n = static_cast<int>(grad.size());
    if (group_rank_ == 0)
      MPI_Reduce(MPI_IN_PLACE, grad.data(), n, MPI_FLOAT, MPI_SUM, 0, group_);
    else
      MPI_Reduce(grad.data(), nullptr, n, MPI_FLOAT, MPI_SUM, 0, group_);
    if (group_rank_ == 0)
      exchange_between_leaders(grad);
    MPI_Bcast(grad.data(), n, MPI_FLOAT, 0, group_);
  }

private:
  void exchange_between_leaders(std::vector<float> &grad) {
    MPI_Allreduce(MPI_IN_PLACE, grad.data(), static_cast<int>(grad.size()),
                  MPI_FLOAT, MPI_SUM, leaders_);
  }
  int rank_ = 0, group_rank_ = 0;
  MPI_Comm group_ = MPI_COMM_NULL, leaders_ = MPI_COMM_NULL;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  {
    TwoLevelReducer reducer(2);
    std::vector<float> grad(8, 1.0f);
    for (int step = 0; step < 3; ++step)
      reducer.average(grad);
    std::printf("%g\n", grad[0]);
  }
  MPI_Finalize();
  return 0;
}
