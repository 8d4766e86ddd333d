// A constructor that agrees its fields, but calls one of the object's
// methods before it does: rank 0 has parsed 3 warm-up rounds, the others
// still hold 0, and warm_up() runs its barrier 3 times on rank 0 only.
// What the fields hold once the constructor returns is agreed; what a
// method sees while it runs is not.
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
    warm_up();
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
  void warm_up() {
    for (unsigned r = 0; r < rounds_; ++r)
      MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  unsigned rounds_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Schedule schedule(argc, argv);
  std::printf("%u rounds\n", schedule.rounds());
  MPI_Finalize();
  return 0;
}
