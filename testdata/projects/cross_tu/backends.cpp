// Two implementations of xtu::Reducer: both issue collectives, in another
// file than the calls through the interface.
#include "comm.h"

#include <vector>

namespace xtu {
namespace {

class FlatReducer : public Reducer {
public:
  void sum(double *data, int count) override {
    MPI_Allreduce(MPI_IN_PLACE, data, count, MPI_DOUBLE, MPI_SUM, // expect-note: 'sum' issues 'MPI_Allreduce' here
                  MPI_COMM_WORLD);
  }
};

class TreeReducer : public Reducer {
public:
  void sum(double *data, int count) override {
    std::vector<double> out(count);
    MPI_Reduce(data, out.data(), count, MPI_DOUBLE, MPI_SUM, 0,
               MPI_COMM_WORLD);
    MPI_Bcast(out.data(), count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < count; ++i)
      data[i] = out[i];
  }
};

} // namespace

Reducer *makeReducer(bool tree) {
  if (tree)
    return new TreeReducer;
  return new FlatReducer;
}

} // namespace xtu
