// The role objects picked by rank issue the same collectives in the same
// order (the coordinator only prints more), so whichever override a rank
// runs, the ranks agree. A role picked by a command-line option would be
// the same on every rank too.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <memory>

struct Role {
  virtual ~Role() = default;
  virtual void sync(double &loss) = 0;
};

struct Coordinator : Role {
  void sync(double &loss) override {
    MPI_Barrier(MPI_COMM_WORLD); // the checkpoint is written
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    std::printf("coordinator: loss %g\n", loss);
  }
};

struct Worker : Role {
  void sync(double &loss) override {
    MPI_Barrier(MPI_COMM_WORLD); // waits for the checkpoint
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::unique_ptr<Role> role;
  if (rank == 0)
    role = std::make_unique<Coordinator>();
  else
    role = std::make_unique<Worker>();
  double loss = 1.0 + rank;
  for (int step = 0; step < 3; ++step)
    role->sync(loss);
  std::printf("rank %d loss %g\n", rank, loss);
  MPI_Finalize();
  return 0;
}
