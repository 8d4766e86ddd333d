// Master/worker rounds: each arm computes the number of rounds itself, from
// the same uniform inputs (the same call on argc, a constant, the world
// size), then runs its own loop of barrier + point-to-point per round.
// Every rank issues the same barriers: inside an arm, a value computed from
// uniform inputs is the same on every rank of that arm, and the same call
// on the same inputs gives the same value in the other arm.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

static int parse_rounds(int argc) { return argc > 2 ? 4 : 3; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> work(8, rank);
  if (rank == 0) {
    int rounds = parse_rounds(argc);
    for (int r = 0; r < rounds; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      for (int p = 1; p < size; ++p)
        MPI_Send(work.data(), 8, MPI_INT, p, r, MPI_COMM_WORLD);
    }
    int checks = 2;
    for (int c = 0; c < checks; ++c)
      MPI_Bcast(work.data(), 8, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    int rounds = parse_rounds(argc);
    for (int r = 0; r < rounds; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Recv(work.data(), 8, MPI_INT, 0, r, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
    int checks = 2;
    for (int c = 0; c < checks; ++c)
      MPI_Bcast(work.data(), 8, MPI_INT, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
