// A distributed sampler object built with this rank's id keeps the loader
// configuration as a member: the steps per epoch come from that member and
// the world size only, so every rank runs the same number of gradient
// all-reduces although each one samples its own slice. The object's rank
// field varies; the fields the step count reads do not.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <vector>

struct LoaderConfig {
  int dataset_size = 211;
  int batch = 8;
};

class DistributedSampler {
public:
  DistributedSampler(const LoaderConfig &cfg, int rank, int world)
      : cfg_(cfg), rank_(rank), world_(world) {
    for (int i = rank_; i < cfg_.dataset_size; i += world_)
      mine_.push_back(i);
  }
  int steps_per_epoch() const {
    return cfg_.dataset_size / (cfg_.batch * world_);
  }
  int local_size() const { return static_cast<int>(mine_.size()); }

private:
  LoaderConfig cfg_;
  int rank_, world_;
  std::vector<int> mine_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  LoaderConfig cfg;
  DistributedSampler sampler(cfg, rank, world);
  double grad = 0.0;
  for (int s = 0; s < sampler.steps_per_epoch(); ++s) {
    grad = 0.01 * sampler.local_size();
    MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    std::printf("grad %g\n", grad);
  MPI_Finalize();
  return 0;
}
