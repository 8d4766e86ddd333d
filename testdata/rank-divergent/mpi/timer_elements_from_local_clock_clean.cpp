// A stage timer holds one slot per stage and adds each rank's own elapsed
// time to a slot through a method; its destructor reduces the slots to rank
// 0. The slots' values are rank-local, their number is not: every rank
// passes the same count.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

class StageTimer {
public:
  explicit StageTimer(std::vector<std::string> stages)
      : names_(std::move(stages)), secs_(names_.size(), 0.0) {}
  void add(std::size_t stage, double seconds) { secs_[stage] += seconds; }
  ~StageTimer() {
    std::vector<double> maxes(secs_.size());
    MPI_Reduce(secs_.data(), maxes.data(), static_cast<int>(secs_.size()),
               MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
      for (std::size_t i = 0; i < names_.size(); ++i)
        std::printf("%-8s max %.6fs\n", names_[i].c_str(), maxes[i]);
  }

private:
  std::vector<std::string> names_;
  std::vector<double> secs_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  {
    StageTimer timer({"load", "step"});
    double t0 = MPI_Wtime();
    std::vector<double> batch(1000, 1.0);
    timer.add(0, MPI_Wtime() - t0);
    t0 = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, batch.data(), int(batch.size()), MPI_DOUBLE,
                  MPI_SUM, MPI_COMM_WORLD);
    timer.add(1, MPI_Wtime() - t0);
  }
  MPI_Finalize();
  return 0;
}
