// A solver parses its settings from text on rank 0 and broadcasts the
// member struct; later reset() puts the sweeps back to the default on rank 0
// alone and broadcasts nothing. The constructor's broadcast agrees its own
// parse, not this later write: rank 0 now runs 2 sweeps, the others keep the
// 4 they received, and they wait in their third all-reduce.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <sstream>
#include <string>

struct SolverSettings {
  int sweeps = 2;
  double tolerance = 1e-6;
  void parse(const std::string &text) {
    std::istringstream in(text);
    std::string key;
    while (in >> key) {
      if (key == "sweeps")
        in >> sweeps;
      else if (key == "tolerance")
        in >> tolerance;
    }
  }
};

class Solver {
public:
  explicit Solver(const std::string &text) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    if (rank_ == 0)
      settings_.parse(text);
    MPI_Bcast(&settings_, sizeof(SolverSettings), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  void reset() {
    if (rank_ == 0)
      settings_.sweeps = 2;
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
  Solver solver("sweeps 4 tolerance 1e-8");
  double first = solver.solve();
  solver.reset();
  double second = solver.solve();
  std::printf("%g %g\n", first, second);
  MPI_Finalize();
  return 0;
}
