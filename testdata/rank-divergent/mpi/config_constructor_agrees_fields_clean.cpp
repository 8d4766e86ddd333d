// A configuration object that its constructor agrees on: rank 0 parses the
// options into the object's fields, packs them into a vector and
// broadcasts it; the other ranks store what they received into the same
// fields (a scalar field is broadcast in place on both sides). Every rank
// leaves the constructor with the same fields, so the branches main takes
// on them later run alike everywhere.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

class Options {
public:
  Options(int argc, char **argv) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      mode_ = argc > 1 ? std::atoi(argv[1]) : 2;
      steps_ = argc > 2 ? std::atoi(argv[2]) : 3;
      tolerance_ = argc > 3 ? std::atof(argv[3]) : 1e-3;
    }
    std::vector<unsigned> packed = {mode_, steps_};
    if (rank == 0) {
      MPI_Bcast(packed.data(), packed.size(), MPI_UNSIGNED, 0, MPI_COMM_WORLD);
      MPI_Bcast(&tolerance_, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    } else {
      MPI_Bcast(packed.data(), packed.size(), MPI_UNSIGNED, 0, MPI_COMM_WORLD);
      size_t next = 0;
      mode_ = packed[next++];
      steps_ = packed[next++];
      MPI_Bcast(&tolerance_, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
  }
  unsigned mode() const { return mode_; }
  unsigned steps() const { return steps_; }
  double tolerance() const { return tolerance_; }

private:
  unsigned mode_ = 0, steps_ = 0;
  double tolerance_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Options options(argc, argv);
  if (options.mode() == 2)
    MPI_Barrier(MPI_COMM_WORLD);
  double local = 1.0, total = 0.0;
  for (unsigned s = 0; s < options.steps(); ++s)
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (options.tolerance() > 0.5)
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("total %g\n", total);
  MPI_Finalize();
  return 0;
}
