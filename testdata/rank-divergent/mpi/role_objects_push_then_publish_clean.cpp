// A parameter server in two role objects picked by rank: the server waits
// for the lead worker's pushed gradient (a receive), the lead worker sends it
// (a send under its own branch), and then every rank takes part in the same
// two broadcasts that publish the parameters and the stop flag. The roles
// differ in their point-to-point traffic only; the collectives they issue
// are the same, in the same order.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <vector>

constexpr int kDim = 8;
constexpr int kTag = 7;

struct State {
  std::vector<double> params = std::vector<double>(kDim, 0.0);
  int stop = 0;
};

static void publish(State &s) {
  MPI_Bcast(s.params.data(), kDim, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(&s.stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

struct Node {
  virtual ~Node() = default;
  virtual void round(State &s) = 0;
};

struct Server : Node {
  int rounds = 0;
  void round(State &s) override {
    std::vector<double> grad(kDim, 0.0);
    MPI_Recv(grad.data(), kDim, MPI_DOUBLE, 1, kTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    for (int i = 0; i < kDim; ++i)
      s.params[i] -= 0.1 * grad[i];
    s.stop = ++rounds >= 5;
    publish(s);
  }
};

struct Worker : Node {
  int rank;
  explicit Worker(int r) : rank(r) {}
  void round(State &s) override {
    std::vector<double> grad(kDim, 0.0);
    for (int i = 0; i < kDim; ++i)
      grad[i] = s.params[i] - 1.0 - 0.01 * rank;
    if (rank == 1)
      MPI_Send(grad.data(), kDim, MPI_DOUBLE, 0, kTag, MPI_COMM_WORLD);
    publish(s);
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2)
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::unique_ptr<Node> node;
  if (rank == 0)
    node = std::make_unique<Server>();
  else
    node = std::make_unique<Worker>(rank);
  State s;
  while (!s.stop)
    node->round(s);
  if (rank == 0)
    std::printf("params[0] = %g\n", s.params[0]);
  MPI_Finalize();
  return 0;
}
