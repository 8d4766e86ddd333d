// The report writer lives in another translation unit of the project (no
// body here). It is given the rank, but that does not make its status a
// rank-dependent value, and a failed report is an error path: the barrier
// after it is reached by every healthy rank.
// run: none -- write_report is defined in another translation unit on purpose
#include <mpi.h>
#include <cstdio>

struct RunStats {
  int steps;
  int layers;
  double loss;
};

int write_report(int rank, const RunStats *stats);
void fill_host_info(RunStats *stats, int rank);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  RunStats stats = {argc > 1 ? 8 : 4, 2, 0.0};
  fill_host_info(&stats, rank);
  const int status = write_report(rank, &stats);
  if (status == 2)
    MPI_Barrier(MPI_COMM_WORLD);
  if (write_report(rank, &stats) != 0)
    return 1;
  for (int step = 0; step < stats.steps; ++step)
    MPI_Allreduce(MPI_IN_PLACE, &stats.loss, 1, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
