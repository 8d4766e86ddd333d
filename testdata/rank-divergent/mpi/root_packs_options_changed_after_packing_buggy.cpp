// The twin of root_packs_options_clean.cpp where rank 0 changes the count
// after packing it: what it tests is no longer what it sent, and with the
// default options rank 0 waits in MPI_Allreduce alone.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n_cases = 0, use_default = 0, ok = 0, rounds = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int info[3];
    n_cases = argc > 1 ? std::atoi(argv[1]) : 3;
    use_default = argc > 2;
    ok = n_cases < 100 ? 0 : -1;
    info[0] = n_cases;
    info[1] = use_default;
    info[2] = ok;
    n_cases -= 3; // the header is not a case
    MPI_Bcast(info, 3, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok < 0) {
      MPI_Finalize();
      return 0;
    }
    std::vector<int> cases(n_cases, 7);
    if (n_cases > 0 && !use_default) {
      MPI_Bcast(cases.data(), n_cases, MPI_INT, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
      int sum = 0, total = 0;
      MPI_Allreduce(&sum, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    }
    rounds = n_cases / 2;
    MPI_Bcast(&rounds, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rounds > 0)
      MPI_Barrier(MPI_COMM_WORLD);
  } else {
    int received[3];
    MPI_Bcast(received, 3, MPI_INT, 0, MPI_COMM_WORLD);
    n_cases = received[0];
    use_default = received[1];
    ok = received[2];
    if (ok < 0) {
      MPI_Finalize();
      return 0;
    }
    if (use_default) {
      n_cases = 0;
    } else if (n_cases > 0) {
      std::vector<int> cases(n_cases);
      MPI_Bcast(cases.data(), n_cases, MPI_INT, 0, MPI_COMM_WORLD);
      int sum = cases[0], total = 0;
      MPI_Allreduce(&sum, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Bcast(&rounds, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rounds > 0)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  std::printf("rank %d: %d cases, %d rounds\n", rank, n_cases, rounds);
  MPI_Finalize();
  return 0;
}
