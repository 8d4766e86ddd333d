// Roles as a std::variant: rank 0 is the coordinator, the others workers,
// and one generic visitor runs each role's step. The coordinator
// broadcasts the plan before it reduces the statistics; the workers reduce
// first. Which overload std::visit runs depends on the rank, and the two
// issue the same collectives in the opposite order.
// run: mpi buggy
#include <mpi.h>

#include <variant>

struct Coordinator {
  void step(int *plan, double *stats) {
    MPI_Bcast(plan, 1024, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, stats, 4096, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
};

struct Worker {
  void step(int *plan, double *stats) {
    MPI_Allreduce(MPI_IN_PLACE, stats, 4096, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(plan, 1024, MPI_INT, 0, MPI_COMM_WORLD);
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::variant<Coordinator, Worker> role;
  if (rank != 0)
    role = Worker{};
  static int plan[1024] = {1, 2, 3, 4};
  static double stats[4096] = {1.0, 2.0};
  for (int round = 0; round < 3; ++round)
    std::visit([&](auto &r) { r.step(plan, stats); }, role); // expect: distlint-rank-divergent-collective
  MPI_Finalize();
  return 0;
}
