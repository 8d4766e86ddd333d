// A helper that averages a value over the ranks returns it unchanged when
// the job has one rank. The value it returns is the average on every rank
// either way (one rank agrees with itself), so the loop that stops on it
// stops on every rank at the same step.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static double average(double v, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size == 1)
    return v;
  double total = 0;
  MPI_Allreduce(&v, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return total / size;
}

static double spread(double v, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  double result = v;
  if (size > 1) {
    double largest = 0;
    MPI_Allreduce(&v, &largest, 1, MPI_DOUBLE, MPI_MAX, comm);
    result = largest;
  }
  return result;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double loss = 1.0 + rank;
  int steps = 0;
  for (int step = 0; step < 10; ++step) {
    if (average(loss, MPI_COMM_WORLD) < 0.5 ||
        spread(loss, MPI_COMM_WORLD) < 0.7)
      break;
    loss *= 0.8;
    ++steps;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("stopped after %d steps\n", steps);
  MPI_Finalize();
  return 0;
}
