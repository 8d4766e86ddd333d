/* Every rank issues the same collectives, on the world and on a split
   communicator, and exchanges messages in a ring with non-blocking calls.
   Must finish with the same output with and without the recorder.
   run: mpi clean */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  double local = rank + 0.5, sum = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int root_value = rank == 0 ? 42 : 0;
  MPI_Bcast(&root_value, 1, MPI_INT, 0, MPI_COMM_WORLD);

  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int half_rank, half_sum = 0;
  MPI_Comm_rank(half, &half_rank);
  MPI_Allreduce(&rank, &half_sum, 1, MPI_INT, MPI_SUM, half);

  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int outgoing = rank * 10, incoming = -1;
  MPI_Request requests[2];
  MPI_Irecv(&incoming, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(&outgoing, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);

  if (rank == 0) {
    int token = 99;
    MPI_Send(&token, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int token = 0;
    MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    root_value += token;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&half);
  printf("rank %d: sum %.1f root %d half %d from-left %d\n", rank, sum, root_value, half_sum,
         incoming);
  MPI_Finalize();
  return 0;
}
