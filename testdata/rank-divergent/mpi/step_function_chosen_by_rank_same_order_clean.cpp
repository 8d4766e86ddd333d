// The training step is a std::function picked by rank; the leading step only
// prints more. Both issue the all-reduce, then the barrier: whichever a rank
// runs, the ranks agree.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <functional>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double loss = 1.0 + rank;
  auto lead = [&loss] {
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    std::printf("lead: loss %g\n", loss);
    MPI_Barrier(MPI_COMM_WORLD);
  };
  auto follow = [&loss] {
    MPI_Allreduce(MPI_IN_PLACE, &loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  };
  std::function<void()> step = lead;
  if (rank != 0)
    step = follow;
  for (int i = 0; i < 3; ++i)
    step();
  std::printf("rank %d loss %g\n", rank, loss);
  MPI_Finalize();
  return 0;
}
