// The checkpoint helper writes with collective MPI-IO on the communicator
// it is given: every member must open, write and close the file together.
// The periodic checkpoint is called on every rank, but the final one only
// on rank 0, whose MPI_File_open on MPI_COMM_WORLD waits for ranks that have
// left the loop.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

struct State {
  std::vector<double> weights;
  int step = 0;
};

static void save(const State &s, MPI_Comm comm, const char *path) {
  MPI_File fh;
  MPI_File_open(comm, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                &fh);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Offset offset = (MPI_Offset)rank * s.weights.size() * sizeof(double);
  MPI_File_write_at_all(fh, offset, s.weights.data(), (int)s.weights.size(),
                        MPI_DOUBLE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  State s;
  s.weights.assign(16, 1.0);
  const int save_every = 5;
  for (int step = 0; step < 10; ++step) {
    MPI_Allreduce(MPI_IN_PLACE, s.weights.data(), 16, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    s.step = step;
    if (step % save_every == 0)
      save(s, MPI_COMM_WORLD, "distlint-periodic.ckpt");
  }
  if (rank == 0)
    save(s, MPI_COMM_WORLD, "distlint-final.ckpt"); // expect: distlint-rank-divergent-collective
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
