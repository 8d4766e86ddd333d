// A constructor that agrees its fields, but asks one of them through an
// accessor before it does: rank 0 has parsed 3 warm-up rounds, the others
// still hold 0, and only rank 0 enters the barrier the accessor's answer
// guards. What the fields hold once the constructor returns is agreed; what
// the accessor answers while it runs is not.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

class Schedule {
public:
  Schedule(int argc, char **argv) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
      rounds_ = argc > 1 ? std::atoi(argv[1]) : 3;
    if (rounds() > 0)
      MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    std::vector<unsigned> packed = {rounds_};
    if (rank == 0) {
      MPI_Bcast(packed.data(), packed.size(), MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    } else {
      MPI_Bcast(packed.data(), packed.size(), MPI_UNSIGNED, 0, MPI_COMM_WORLD);
      rounds_ = packed[0];
    }
  }
  unsigned rounds() const { return rounds_; }

private:
  unsigned rounds_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Schedule schedule(argc, argv);
  std::printf("%u rounds\n", schedule.rounds());
  MPI_Finalize();
  return 0;
}
