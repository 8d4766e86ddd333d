// Rank 0 reads the schedule from its options file and copies it into a
// header, which it broadcasts; only the other ranks copy the header back
// into their variables (rank 0 already holds those values). After the
// branch every rank has rank 0's steps and evaluation interval, so the
// training loop and its periodic evaluation issue the same collectives.
// run: mpi clean
#include <mpi.h>

#include <cstdio>

static void writeOptions(const char *path) {
  if (FILE *F = std::fopen(path, "w")) {
    std::fprintf(F, "5 2\n");
    std::fclose(F);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *path = "/tmp/distlint_options_copied_back.txt";
  int steps = 0, evalEvery = 1;
  int header[2] = {0, 0};
  if (rank == 0) {
    writeOptions(path);
    if (FILE *F = std::fopen(path, "r")) {
      if (std::fscanf(F, "%d %d", &steps, &evalEvery) != 2)
        steps = 0;
      std::fclose(F);
    }
    if (evalEvery < 1)
      evalEvery = 1;
    header[0] = steps;
    header[1] = evalEvery;
  }
  MPI_Bcast(header, 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) {
    steps = header[0];
    evalEvery = header[1];
  }
  double loss = 1.0 + rank;
  for (int step = 0; step < steps; ++step) {
    double sum = 0.0;
    MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    loss = 0.5 * sum;
    if (step % evalEvery == 0) {
      double best = 0.0;
      MPI_Reduce(&loss, &best, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    std::printf("%d steps, loss %g\n", steps, loss);
  MPI_Finalize();
  return 0;
}
