// Regression test: iterating a yaml-cpp node (Debian's libyaml-cpp-dev 0.7,
// a system header) used to crash the analysis of object construction.
// The configuration is the same on every rank, so is the loop over it.
// run: none -- links libyaml-cpp, which the MPI run proofs do not
#include <mpi.h>
#include <yaml-cpp/yaml.h>

void f(const YAML::Node &n) {
  auto it = n.begin();
  (void)it;
}

int count_stages(const YAML::Node &config) {
  int stages = 0;
  for (auto it = config.begin(); it != config.end(); ++it)
    ++stages;
  return stages;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  YAML::Node config = YAML::Load("[warmup, train, eval]");
  f(config);
  for (int stage = 0; stage < count_stages(config); ++stage)
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
