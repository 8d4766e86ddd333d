// A solver tunes its cutoff once per changed box. Rank 0 alone searches the
// number of wave vectors from the reduced charge count and returns an error
// when the accuracy cannot be reached, while the other ranks wait in the
// broadcast of the tuned value: with this accuracy it never is, so rank 0
// returns and the others hang in MPI_Bcast. Only that broadcast is
// reported: the code after it (the retune flag cleared, the next call's
// early return) runs on every rank of a run that does not hang there.
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
  MPI_Reduce(&local_charges, &charges, 1, MPI_INT, MPI_SUM, 0, s->comm);
  if (s->rank == 0) {
    s->kmax = 0;
    double err = 1e10;
    while (err > s->accuracy) {
      s->kmax++;
      if (s->kmax > s->max_kmax) {
        std::fprintf(stderr, "cannot reach the accuracy with kmax <= %d\n",
                     s->max_kmax);
        return 1;
      }
      err = estimate(charges, s->kmax);
    }
  }
  MPI_Bcast(&s->kmax, 1, MPI_INT, 0, s->comm); // expect: distlint-rank-divergent-collective
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
