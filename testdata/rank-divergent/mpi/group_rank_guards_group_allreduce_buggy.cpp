// Actor-learner reinforcement learning: world rank 0 is the learner, the
// others are actors in their own communicator. Advantage statistics are
// summed over the actors, but the guard meant to leave the learner out
// tests the rank *in the actors' communicator*: the first actor (its rank
// 0 there) skips the all-reduce the other actors wait in. With two
// processes there is one actor and nothing to wait for: it hangs from 3.
// run: mpi buggy ranks=3
#include <mpi.h>

#include <cstdio>

struct Coord {
  int rank = 0;
  MPI_Comm group = MPI_COMM_NULL; // the learner alone, or all actors
  int group_rank = 0;
};

static Coord make_coord() {
  Coord c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_split(MPI_COMM_WORLD, c.rank == 0 ? 0 : 1, c.rank, &c.group);
  MPI_Comm_rank(c.group, &c.group_rank);
  return c;
}

static double normalize(const Coord &c, double reward) {
  double moments[2] = {reward, reward * reward};
  if (c.group_rank != 0) // meant: c.rank != 0 (not the learner)
    MPI_Allreduce(MPI_IN_PLACE, moments, 2, MPI_DOUBLE, MPI_SUM, c.group); // expect: distlint-rank-divergent-collective
  return moments[0];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Coord c = make_coord();
  if (c.rank != 0)
    std::printf("actor %d: %.2f\n", c.rank, normalize(c, 0.5 * c.rank));
  MPI_Comm_free(&c.group);
  MPI_Finalize();
  return 0;
}
