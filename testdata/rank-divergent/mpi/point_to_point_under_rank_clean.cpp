// Sends and receives under rank conditions are how point-to-point works;
// this rule leaves them alone (pairing them is another rule's job).
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int token = 0;
  if (rank == 0) {
    token = 42;
    MPI_Send(&token, 1, MPI_INT, 1 % size, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  // A ring exchange with nonblocking calls.
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int out = rank, in = -1;
  MPI_Request requests[2];
  MPI_Irecv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  std::printf("rank %d token %d from-left %d\n", rank, token, in);
  MPI_Finalize();
  return 0;
}
