// As tuned_on_root_returns_before_broadcast_buggy, but nothing waits for
// rank 0 when it gives up: the tuned value is not broadcast, and rank 0
// keeps the default when the accuracy cannot be reached, leaving its retune
// flag set. It is the only rank that retunes on the next call, so it
// reduces the charge count alone while the others all-reduce the energy.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

struct Solver {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int kmax = 0;
  int max_kmax = 4;
  double accuracy = 1e-9;
  int needs_retune = 1;
};

static double estimate(int charges, int kmax) {
  return charges / double(1 + kmax * kmax);
}

static int tune(Solver *s, int local_charges) {
  if (!s->needs_retune)
    return 0;
  int charges = 0;
  MPI_Reduce(&local_charges, &charges, 1, MPI_INT, MPI_SUM, 0, s->comm); // expect: distlint-rank-divergent-collective
  if (s->rank == 0) {
    s->kmax = 0;
    double err = 1e10;
    while (err > s->accuracy) {
      s->kmax++;
      if (s->kmax > s->max_kmax) {
        std::fprintf(stderr, "cannot reach the accuracy with kmax <= %d\n",
                     s->max_kmax);
        s->kmax = s->max_kmax;
        return 0;
      }
      err = estimate(charges, s->kmax);
    }
  }
  s->needs_retune = 0;
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Solver s;
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  for (int step = 0; step < 3; ++step) {
    if (tune(&s, 10 + s.rank) != 0)
      break;
    double energy = s.kmax, total = 0;
    MPI_Allreduce(&energy, &total, 1, MPI_DOUBLE, MPI_SUM, s.comm);
  }
  MPI_Finalize();
  return 0;
}
