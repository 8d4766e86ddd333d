// The solver's root tunes the cutoff from the particle count it reduced, but
// the tuning call broadcasts the box instead of the cutoff: the other ranks
// keep their default cutoff, count 8 shells where the root counts 3, and
// their extra all-reduces have no partner.
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

static void solver_tune(Solver *s, int local_particles) {
  long total = 0, mine = local_particles;
  MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, s->comm);
  if (s->rank == 0 && s->tune_cutoff)
    s->cutoff = 2.0 + double(total) / 1000.0;
  if (s->tune_cutoff)
    MPI_Bcast(&s->box, 1, MPI_DOUBLE, 0, s->comm);
}

static double solver_run(Solver *s, double charge) {
  double energy = 0.0;
  const int shells = int(s->box / s->cutoff);
  for (int shell = 0; shell < shells; ++shell) {
    double part = charge / (shell + 1), sum = 0.0;
    MPI_Allreduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, s->comm); // expect: distlint-rank-divergent-collective
    energy += sum;
  }
  return energy;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Solver *s = solver_create(MPI_COMM_WORLD);
  solver_tune(s, 10 + s->rank);
  const double energy = solver_run(s, 1.0 + s->rank);
  if (s->rank == 0)
    std::printf("cutoff %g, energy %g\n", s->cutoff, energy);
  std::free(s);
  MPI_Finalize();
  return 0;
}
