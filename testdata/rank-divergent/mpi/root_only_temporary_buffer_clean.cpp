// A small vector class backs both a root-only receive buffer and a
// request that sums two counters in place. The root builds its gather
// buffer as a temporary sized by the world (`Vec<int>(size)` under
// `rank == 0`), the others pass an empty one the gather ignores. That
// temporary lives for its call only, so it says nothing of the request's
// vector, built from two values on every rank: its count is 2 everywhere.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

template <class T> class Vec {
public:
  explicit Vec(const std::allocator<T> &a = std::allocator<T>()) : data_(a) {}
  explicit Vec(int n, const std::allocator<T> &a = std::allocator<T>())
      : data_(n, T(), a) {}
  Vec(std::initializer_list<T> l) : data_(l) {}
  T *ptr() { return data_.data(); }
  int size() const { return static_cast<int>(data_.size()); }
  const T &operator[](int i) const { return data_[i]; }

private:
  std::vector<T> data_;
};

class PendingSum {
public:
  explicit PendingSum(Vec<int> &&v) : data_(std::move(v)) {}
  int *ptr() { return data_.ptr(); }
  int count() const { return data_.size(); }
  int at(int i) const { return data_[i]; }
  MPI_Request req = MPI_REQUEST_NULL;

private:
  Vec<int> data_;
};

static void start_sum(PendingSum &p) {
  MPI_Iallreduce(MPI_IN_PLACE, p.ptr(), p.count(), MPI_INT, MPI_SUM,
                 MPI_COMM_WORLD, &p.req);
}

static void gather_to_root(int x, Vec<int> &&out) {
  MPI_Gather(&x, 1, MPI_INT, out.ptr(), 1, MPI_INT, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0)
    gather_to_root(rank + 42, Vec<int>(size));
  else
    gather_to_root(rank + 42, Vec<int>());
  PendingSum p(Vec<int>{42, 3 + rank});
  start_sum(p);
  MPI_Wait(&p.req, MPI_STATUS_IGNORE);
  if (rank == 0)
    std::printf("sums %d %d\n", p.at(0), p.at(1));
  MPI_Finalize();
  return 0;
}
