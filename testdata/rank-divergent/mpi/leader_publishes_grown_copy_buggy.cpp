// As a federated-averaging round, but the leader's copy grows: the local
// trainer appends a bias term when its shard is large, so the leader
// copies a longer vector into the global model and broadcasts more
// elements than the other ranks expect (a truncation error, or a hang).
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <vector>

static void train_local(std::vector<double> &w, int samples) {
  for (size_t i = 0; i < w.size(); ++i)
    w[i] -= 0.1 * (w[i] - 1.0);
  if (samples > 50)
    w.push_back(0.0); // A bias term: this rank's vector is now longer.
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int samples = 40 + 13 * rank;
  std::vector<double> global(16, 0.0);
  for (int round = 0; round < 3; ++round) {
    std::vector<double> local = global;
    train_local(local, samples);
    if (rank == round % 2)
      global = local;
    MPI_Bcast(global.data(), static_cast<int>(global.size()), MPI_DOUBLE, // expect: distlint-rank-divergent-collective
              round % 2, MPI_COMM_WORLD);
  }
  if (rank == 0)
    std::printf("w[0] = %.4f\n", global[0]);
  MPI_Finalize();
  return 0;
}
