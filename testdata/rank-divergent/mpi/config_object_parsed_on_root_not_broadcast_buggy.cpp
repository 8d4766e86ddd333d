// A solver keeps its settings in a member struct whose parse() method reads
// a file; only rank 0 calls it and the struct is never broadcast: rank 0
// runs the sweeps the file gives (2 + its first byte mod 3: 3 for an ELF
// binary), the others the default 2, and rank 0 waits in its third
// all-reduce.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>

struct SolverSettings {
  int sweeps = 2;
  double tolerance = 1e-6;
  void parse(const char *path) {
    std::FILE *f = std::fopen(path, "rb");
    if (!f)
      return;
    sweeps = 2 + std::fgetc(f) % 3;
    std::fclose(f);
  }
};

class Solver {
public:
  explicit Solver(const char *path) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    if (rank_ == 0)
      settings_.parse(path);
  }
  double solve() {
    double x = 1.0 + rank_, sum = 0;
    for (int s = 0; s < settings_.sweeps; ++s)
      MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    return sum;
  }

private:
  int rank_ = 0;
  SolverSettings settings_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Solver solver(argv[0]);
  std::printf("%g\n", solver.solve());
  MPI_Finalize();
  return 0;
}
