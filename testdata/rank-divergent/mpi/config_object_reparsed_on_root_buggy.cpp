// A solver parses its settings on rank 0 and broadcasts the member struct,
// but reload() parses the file again, at another offset, on rank 0 alone
// without broadcasting: after it, rank 0 runs 2 sweeps (the ELF binary's
// 'E') while the others keep the 3 they received, and they wait in their
// third all-reduce.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>

struct SolverSettings {
  int sweeps = 2;
  double tolerance = 1e-6;
  void parse(const char *path, long offset) {
    std::FILE *f = std::fopen(path, "rb");
    if (!f)
      return;
    std::fseek(f, offset, SEEK_SET);
    sweeps = 2 + std::fgetc(f) % 3;
    std::fclose(f);
  }
};

class Solver {
public:
  explicit Solver(const char *path) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    if (rank_ == 0)
      settings_.parse(path, 0);
    MPI_Bcast(&settings_, sizeof(SolverSettings), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  void reload(const char *path) {
    if (rank_ == 0)
      settings_.parse(path, 1);
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
  solver.reload(argv[0]);
  std::printf("%g\n", solver.solve());
  MPI_Finalize();
  return 0;
}
