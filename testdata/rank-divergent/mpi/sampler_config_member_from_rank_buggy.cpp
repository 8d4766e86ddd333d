// The same sampler given a configuration each rank builds for itself: the
// dataset size counts this rank's extra local files, so the member the step
// count reads differs between ranks, and the ranks with more steps wait in
// an all-reduce the others never issue.
// run: mpi buggy
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
  cfg.dataset_size += 64 * rank; // this rank's extra local files
  DistributedSampler sampler(cfg, rank, world);
  double grad = 0.0;
  for (int s = 0; s < sampler.steps_per_epoch(); ++s) { // expect-note: loop condition depends on rank
    grad = 0.01 * sampler.local_size();
    MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  if (rank == 0)
    std::printf("grad %g\n", grad);
  MPI_Finalize();
  return 0;
}
