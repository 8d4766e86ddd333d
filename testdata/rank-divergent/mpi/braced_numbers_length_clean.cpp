// A statistics record built from a braced list of numbers, one of them this
// rank's own count: the values differ between ranks, the length (three,
// written in the source) does not, so the all-reduce count `stats.size()`
// agrees. The record is kept in an object whose constructor takes the list.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <initializer_list>
#include <vector>

class Stats {
public:
  Stats(std::initializer_list<double> values) : values_(values) {}
  double *data() { return values_.data(); }
  int size() const { return static_cast<int>(values_.size()); }

private:
  std::vector<double> values_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Stats stats{1.0, 0.5 * rank, 10.0 + rank};
  MPI_Allreduce(MPI_IN_PLACE, stats.data(), stats.size(), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("sum %g\n", stats.data()[1]);
  MPI_Finalize();
  return 0;
}
