// The two arms spell the same broadcast differently (a named constant and a
// literal, a buffer of the same type and length): the arguments that must
// agree are equal.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

namespace {
constexpr int kRoot = 0;
enum Tag { kSetup = 3 };
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int setup[kSetup] = {0, 0, 0};
  int received[3] = {0, 0, 0};
  const int n = 3;
  if (rank == kRoot) {
    setup[0] = 7;
    MPI_Bcast(setup, kSetup, MPI_INT, kRoot, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(received, n, MPI_INT, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d %d %d\n", rank, setup[0], received[0]);
  MPI_Finalize();
  return 0;
}
