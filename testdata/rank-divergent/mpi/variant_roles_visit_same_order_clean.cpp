// Roles as a std::variant, visited by one generic lambda: the coordinator
// and the workers do different local work around the same collectives in
// the same order (broadcast the plan, then reduce the statistics), so
// whichever overload a rank runs, the ranks match.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <variant>

struct Coordinator {
  void step(int *plan, double *stats) {
    plan[0] += 1; // the coordinator revises the plan
    MPI_Bcast(plan, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, stats, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    std::printf("round stats %g %g\n", stats[0], stats[1]);
  }
};

struct Worker {
  void step(int *plan, double *stats) {
    MPI_Bcast(plan, 4, MPI_INT, 0, MPI_COMM_WORLD);
    stats[0] = plan[0] * 0.5;
    MPI_Allreduce(MPI_IN_PLACE, stats, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::variant<Coordinator, Worker> role;
  if (rank != 0)
    role = Worker{};
  int plan[4] = {1, 2, 3, 4};
  double stats[2] = {1.0, 2.0};
  for (int round = 0; round < 3; ++round)
    std::visit([&](auto &r) { r.step(plan, stats); }, role);
  MPI_Finalize();
  return 0;
}
