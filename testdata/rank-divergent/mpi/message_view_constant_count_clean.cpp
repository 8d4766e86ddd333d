// A small view over a value to send: it is built from each rank's own loss,
// but its count and datatype do not read the object (one element of a
// fixed type), so every rank passes the same count and datatype.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

template <class T> struct MessageView {
  T &value;
  explicit MessageView(T &v) : value(v) {}
  void *buffer() const { return &value; }
  int count() const { return 1; }
  MPI_Datatype type() const { return MPI_DOUBLE; }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double loss = 0.5 * (rank + 1);
  MessageView<double> view(loss);
  MPI_Allreduce(MPI_IN_PLACE, view.buffer(), view.count(), view.type(), MPI_SUM,
                MPI_COMM_WORLD);
  std::printf("rank %d: summed loss %g\n", rank, loss);
  MPI_Finalize();
  return 0;
}
