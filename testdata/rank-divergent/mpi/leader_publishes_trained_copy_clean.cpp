// Federated-averaging round: every rank trains a copy of the global model
// for as many local epochs as its own data asks, the leader (an agreed
// rank) copies its result back into the global model, and the model is
// broadcast. The copy has the model's length, and the helpers write its
// elements only, so the broadcast's count (the model's size()) is the same
// on every rank.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <vector>

struct Config {
  int dim = 16;
  int rounds = 4;
  double lr = 0.1;
};

// Writes elements only: the caller's vector keeps its length.
static void train_local(std::vector<double> &w, int samples, double lr) {
  const int epochs = 1 + samples / 40;
  for (int e = 0; e < epochs; ++e)
    for (size_t i = 0; i < w.size(); ++i)
      w[i] -= lr * (w[i] - 1.0);
}

// Packs the local weights and sample count into one buffer: its length
// comes from the model's, the count's value reaches one element only.
static void average(std::vector<double> &w, int samples) {
  std::vector<double> buf(w.size() + 1);
  for (size_t i = 0; i < w.size(); ++i)
    buf[i] = w[i] * samples;
  buf[w.size()] = samples;
  MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()),
                MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = buf[i] / buf[w.size()];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const Config cfg;
  const int samples = 40 + 13 * rank; // non-IID shards
  std::vector<double> global(cfg.dim, 0.0);
  for (int round = 0; round < cfg.rounds; ++round) {
    std::vector<double> local = global;
    if (samples > 50)
      train_local(local, samples, cfg.lr);
    average(local, samples);
    const int leader = round % world;
    if (rank == leader)
      global = local;
    MPI_Bcast(global.data(), static_cast<int>(global.size()), MPI_DOUBLE,
              leader, MPI_COMM_WORLD);
  }
  if (rank == 0)
    std::printf("w[0] = %.4f\n", global[0]);
  MPI_Finalize();
  return 0;
}
