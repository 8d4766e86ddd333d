// Rank 0 reads the run configuration and broadcasts the whole struct as
// bytes, directly and through helpers (a function taking it by reference, a
// template member of a communicator wrapper). After the broadcast every
// field is the same on every rank, whatever rank 0 wrote into it before:
// loops over cfg.epochs and branches on cfg.eval_every agree.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstring>

struct Config {
  int epochs;
  int steps;
  int eval_every;
};

static Config load_config(const char *path) {
  Config c{2, 3, 1};
  if (path)
    c.epochs += (int)std::strlen(path) % 2;
  return c;
}

static void share_config(Config &c) {
  MPI_Bcast(&c, sizeof(Config), MPI_BYTE, 0, MPI_COMM_WORLD);
}

struct Communicator {
  template <typename T> void broadcast(T &value) {
    MPI_Bcast(&value, sizeof(T), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Config run{}, eval{}, sched{};
  if (rank == 0) {
    run = load_config(argc > 1 ? argv[1] : nullptr);
    eval = run;
    sched = run;
    eval.steps = 1;
  }
  MPI_Bcast(&run, sizeof(run), MPI_BYTE, 0, MPI_COMM_WORLD);
  share_config(eval);
  Communicator comm;
  comm.broadcast(sched);
  double loss = 1.0 + rank, total = 0;
  for (int epoch = 0; epoch < run.epochs; ++epoch) {
    for (int step = 0; step < sched.steps; ++step)
      MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (eval.eval_every > 0 && epoch % eval.eval_every == 0)
      for (int step = 0; step < eval.steps; ++step)
        MPI_Barrier(MPI_COMM_WORLD);
  }
  std::printf("rank %d: total %f\n", rank, total);
  MPI_Finalize();
  return 0;
}
