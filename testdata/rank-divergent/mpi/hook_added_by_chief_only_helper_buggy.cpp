// A logging helper returns early unless this rank is the chief (an accessor
// on the communicator wrapper), then registers a hook that all-reduces the
// loss. The trainer runs every registered hook after each epoch (a
// std::map iterated with structured bindings): the chief issues an
// all-reduce per epoch the other ranks never issue.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <functional>
#include <map>
#include <string>

class Comm {
public:
  explicit Comm(MPI_Comm c) : comm_(c) { MPI_Comm_rank(comm_, &rank_); }
  bool is_chief() const { return rank_ == 0; }
  double sum(double x) const {
    double out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_DOUBLE, MPI_SUM, comm_);
    return out;
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
};

class Hooks {
public:
  using Hook = std::function<void(int, double)>;
  void add(const std::string &name, Hook hook) {
    hooks_.emplace(name, std::move(hook));
  }
  void run(int epoch, double loss) const {
    for (const auto &[name, hook] : hooks_)
      hook(epoch, loss); // expect: distlint-rank-divergent-collective
  }

private:
  std::map<std::string, Hook> hooks_;
};

static void install_logging(const Comm &comm, Hooks &hooks) {
  if (!comm.is_chief())
    return;
  hooks.add("loss", [&comm](int epoch, double loss) {
    std::printf("epoch %d loss %.3f\n", epoch, comm.sum(loss));
  });
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  {
    Comm comm(MPI_COMM_WORLD);
    Hooks hooks;
    install_logging(comm, hooks);
    double loss = 1.0;
    for (int epoch = 0; epoch < 3; ++epoch) {
      loss = comm.sum(loss) * 0.25;
      hooks.run(epoch, loss);
    }
  }
  MPI_Finalize();
  return 0;
}
