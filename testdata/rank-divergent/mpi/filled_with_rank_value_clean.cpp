// Each rank fills its gradient buffer with a value of its own
// (std::vector(n, value), std::string(n, ch)): the contents differ, the
// length is n on every rank, so the element counts agree.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<double> weights(16, 0.5);
  std::vector<double> grads(weights.size(), 0.1 * rank);
  MPI_Allreduce(MPI_IN_PLACE, grads.data(), (int)grads.size(), MPI_DOUBLE,
                MPI_SUM, MPI_COMM_WORLD);
  std::string tag(4, static_cast<char>('a' + rank % 26));
  MPI_Bcast(&tag[0], (int)tag.size(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::printf("rank %d: %f %s\n", rank, grads[0], tag.c_str());
  MPI_Finalize();
  return 0;
}
