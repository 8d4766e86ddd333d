// A solver keeps its settings in a member struct whose parse() method reads
// a file; only rank 0 calls it, then the whole struct is broadcast as bytes,
// so the sweeps every rank runs are rank 0's. (The method writes the
// struct's fields on rank 0 alone; the broadcast of the member agrees them.)
// run: mpi clean
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
    MPI_Bcast(&settings_, sizeof(SolverSettings), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  double solve() {
    double x = 1.0 + rank_, sum = 0;
    for (int s = 0; s < settings_.sweeps; ++s)
      MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
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
