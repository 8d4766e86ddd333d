// The solver's root tunes the cutoff from the particle count it reduced and
// broadcasts it in the same tuning call, but hands the solver to a helper
// before the broadcast: the helper's shell count comes from the root's tuned
// cutoff on rank 0 and from the default elsewhere (3 shells against 8).
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

struct Solver {
  MPI_Comm comm;
  int rank;
  double box;
  double cutoff;
  int tune_cutoff;
};

static Solver *solver_create(MPI_Comm comm) {
  Solver *s = static_cast<Solver *>(std::calloc(1, sizeof(Solver)));
  s->comm = comm;
  MPI_Comm_rank(comm, &s->rank);
  s->box = 8.0;
  s->cutoff = 1.0;
  s->tune_cutoff = 1;
  return s;
}

static double solver_warm_up(const Solver *s) {
  double seen = 0.0;
  const int shells = int(s->box / s->cutoff);
  for (int shell = 0; shell < shells; ++shell) {
    double one = 1.0, sum = 0.0;
    MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, s->comm); // expect: distlint-rank-divergent-collective
    seen += sum;
  }
  return seen;
}

static void solver_tune(Solver *s, int local_particles) {
  long total = 0, mine = local_particles;
  MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, s->comm);
  if (s->rank == 0 && s->tune_cutoff)
    s->cutoff = 2.0 + double(total) / 1000.0;
  if (solver_warm_up(s) < 0.0)
    std::abort();
  if (s->tune_cutoff)
    MPI_Bcast(&s->cutoff, 1, MPI_DOUBLE, 0, s->comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Solver *s = solver_create(MPI_COMM_WORLD);
  solver_tune(s, 10 + s->rank);
  if (s->rank == 0)
    std::printf("cutoff %g\n", s->cutoff);
  std::free(s);
  MPI_Finalize();
  return 0;
}
