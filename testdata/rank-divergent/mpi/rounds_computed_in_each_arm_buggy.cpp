// Master/worker rounds computed in each arm, but the workers count one
// round more than the master (parse_rounds(argc) + 1): after the master's
// last round they wait in a barrier it never enters.
// run: mpi buggy
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
  } else {
    int rounds = parse_rounds(argc) + 1;
    for (int r = 0; r < rounds; ++r) {
      MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
      if (r + 1 < rounds)
        MPI_Recv(work.data(), 8, MPI_INT, 0, r, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    }
  }
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
