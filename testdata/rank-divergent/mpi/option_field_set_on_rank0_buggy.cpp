// Rank 0 reads the options and derives the checkpoint interval into the
// config, but only the step count is broadcast: the other ranks keep the
// default 0 and never enter the checkpoint barrier that rank 0 waits in.
// run: mpi buggy
#include <mpi.h>

#include <cstdlib>

struct Config {
  int steps = 4;
  int ckpt_every = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Config cfg;
  if (rank == 0) {
    cfg.steps = argc > 1 ? std::atoi(argv[1]) : 4;
    cfg.ckpt_every = 2;
  }
  MPI_Bcast(&cfg.steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int step = 1; step <= cfg.steps; ++step)
    if (cfg.ckpt_every > 0 && step % cfg.ckpt_every == 0) // expect-note: branch depends on rank
      MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  MPI_Finalize();
  return 0;
}
