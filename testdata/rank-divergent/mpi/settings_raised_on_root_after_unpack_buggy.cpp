// Rank 0 parses the settings from the command line into its own struct and
// raises a step count of 0 to 1 there, but broadcasts only the array it
// packed before: the other ranks unpack steps = 0 while rank 0 runs one
// step, and its all-reduce has no partner.
// run: mpi buggy
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
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
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
    wire[0] = mine.steps - 3;
    wire[1] = mine.width;
  }
  MPI_Bcast(wire, 2, MPI_LONG, 0, MPI_COMM_WORLD);
  Settings settings = unpack(wire);
  if (rank == 0 && settings.steps < 1)
    settings.steps = 1;
  const double acc = train(settings, rank);
  if (rank == 0)
    std::printf("%ld steps, total %g\n", settings.steps, acc);
  MPI_Finalize();
  return 0;
}
