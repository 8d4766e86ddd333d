// A trainer class holding the rank: gradients all-reduced per bucket through
// a std::function, the stop test and the wall-clock limit agreed by
// all-reduce, metrics reduced in place at the root (MPI_IN_PLACE on rank 0,
// a send buffer elsewhere), a try block whose handler aborts the job.
// run: mpi clean
#include <mpi.h>
#include <vector>
#include <cstdio>
#include <stdexcept>
#include <functional>
class Trainer {
 public:
  explicit Trainer(MPI_Comm c) : comm_(c) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  bool is_master() const { return rank_ == 0; }
  void sync_grads(std::vector<float> &g) {
    MPI_Allreduce(MPI_IN_PLACE, g.data(), (int)g.size(), MPI_FLOAT, MPI_SUM, comm_);
    for (float &x : g) x /= size_;
  }
  bool should_stop(double local_loss) {
    double sum = 0;
    MPI_Allreduce(&local_loss, &sum, 1, MPI_DOUBLE, MPI_SUM, comm_);
    return sum / size_ < 1e-3;
  }
  void reduce_metrics(double *m, int n) {
    if (is_master())
      MPI_Reduce(MPI_IN_PLACE, m, n, MPI_DOUBLE, MPI_SUM, 0, comm_);
    else
      MPI_Reduce(m, nullptr, n, MPI_DOUBLE, MPI_SUM, 0, comm_);
  }
  void for_each_bucket(std::vector<std::vector<float>> &b, const std::function<void(std::vector<float> &)> &f) {
    for (auto &x : b) f(x);
  }
  void train(int steps) {
    std::vector<std::vector<float>> buckets(4, std::vector<float>(64, 1.0f));
    double start = MPI_Wtime();
    for (int s = 0; s < steps; ++s) {
      for_each_bucket(buckets, [this](std::vector<float> &g) { sync_grads(g); });
      double loss = 1.0 / (s + 1 + rank_);
      if (should_stop(loss)) break;
      int over = MPI_Wtime() - start > 3600.0, any_over = 0;
      MPI_Allreduce(&over, &any_over, 1, MPI_INT, MPI_MAX, comm_);
      if (any_over) break;
      double metrics[2] = {loss, 1.0};
      reduce_metrics(metrics, 2);
      if (is_master()) printf("step %d loss %f\n", s, metrics[0] / size_);
    }
    try {
      if (rank_ < 0) throw std::runtime_error("bad rank");
      MPI_Barrier(comm_);
    } catch (const std::exception &e) {
      fprintf(stderr, "%s\n", e.what());
      MPI_Abort(comm_, 1);
    }
  }
 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Trainer t(MPI_COMM_WORLD);
  t.train(100);
  MPI_Finalize();
}
