// Rank 0 parses the settings from the command line into its own struct,
// packs them into an array and broadcasts it; every rank unpacks the array
// into a fresh struct field by field. The training helper loops over the
// steps of the struct it is given, the unpacked one, which every rank holds
// alike, whatever rank 0 wrote into its own copy.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Settings {
  long steps = 3;
  long width = 8;
};

static Settings parse(int argc, char **argv) {
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--steps"))
      s.steps = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--width"))
      s.width = std::atol(argv[i + 1]);
  }
  return s;
}

static Settings unpack(const long *wire) {
  Settings s;
  s.steps = wire[0];
  s.width = wire[1];
  return s;
}

static double train(const Settings &s, int rank) {
  double acc = 0.0;
  for (long step = 0; step < s.steps; ++step) {
    double local = double(rank + step) * double(s.width), sum = 0.0;
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    acc += sum;
  }
  return acc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long wire[2] = {0, 0};
  if (rank == 0) {
    Settings mine = parse(argc, argv);
    if (mine.steps < 1)
      mine.steps = 1;
    wire[0] = mine.steps;
    wire[1] = mine.width;
  }
  MPI_Bcast(wire, 2, MPI_LONG, 0, MPI_COMM_WORLD);
  const Settings settings = unpack(wire);
  const double acc = train(settings, rank);
  if (rank == 0)
    std::printf("%ld steps, total %g\n", settings.steps, acc);
  MPI_Finalize();
  return 0;
}
