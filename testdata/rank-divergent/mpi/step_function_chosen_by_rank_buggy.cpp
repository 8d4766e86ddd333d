// The training step is a std::function picked by rank: rank 0 runs the
// leading step (checkpoint barrier, then the loss all-reduce), the others
// the following step (all-reduce, then barrier). Both issue one barrier and
// one all-reduce, in a different order, so rank 0 waits in the barrier and
// the others in the all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <functional>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double loss = 1.0 + rank;
  auto lead = [&loss] { // expect-note: issues its collectives here
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  };
  auto follow = [&loss] { // expect-note: issues its collectives here
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  };
  std::function<void()> step = lead;
  if (rank != 0)
    step = follow;
  for (int i = 0; i < 3; ++i)
    step(); // expect: distlint-rank-divergent-collective
  std::printf("rank %d loss %g\n", rank, loss);
  MPI_Finalize();
  return 0;
}
