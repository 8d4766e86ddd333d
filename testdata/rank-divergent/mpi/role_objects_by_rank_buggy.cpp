// A trainer that picks its role object by rank: rank 0 gets a Coordinator,
// the others a Worker, both behind the virtual Role::sync. The coordinator
// waits at the checkpoint barrier before it averages the loss; the worker
// averages first. Every rank issues one barrier and one all-reduce, in a
// different order: rank 0 waits in the barrier, the others in the
// all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <memory>

struct Role {
  virtual ~Role() = default;
  virtual void sync(double &loss) = 0;
};

struct Coordinator : Role {
  void sync(double &loss) override { // expect-note: issues its collectives here
    MPI_Barrier(MPI_COMM_WORLD); // the checkpoint is written
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
};

struct Worker : Role {
  void sync(double &loss) override { // expect-note: issues its collectives here
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD); // waits for the checkpoint
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
    role->sync(loss); // expect: distlint-rank-divergent-collective
  std::printf("rank %d loss %g\n", rank, loss);
  MPI_Finalize();
  return 0;
}
