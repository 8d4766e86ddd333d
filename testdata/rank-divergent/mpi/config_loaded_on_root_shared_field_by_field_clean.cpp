// A trainer keeps its settings in a member struct. Rank 0 alone parses them
// (replacing the whole struct), then the constructor broadcasts each field
// from rank 0 through a small template helper before anything reads them:
// every rank runs the same steps and evaluates at the same epochs.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

struct TrainConfig {
  int epochs = 3;
  int steps_per_epoch = 8;
  int eval_every = 2;
  double lr = 0.05;
};

template <typename T> MPI_Datatype mpi_type();
template <> MPI_Datatype mpi_type<int>() { return MPI_INT; }
template <> MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }

template <typename T> void share(T &field, MPI_Comm comm) {
  MPI_Bcast(&field, 1, mpi_type<T>(), 0, comm);
}

static TrainConfig parse_config(const char *text) {
  TrainConfig cfg;
  cfg.steps_per_epoch = text ? std::atoi(text) : 5;
  cfg.eval_every = 1;
  return cfg;
}

class Trainer {
public:
  Trainer(MPI_Comm comm, const char *text) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    if (rank_ == 0)
      cfg_ = parse_config(text);
    share(cfg_.epochs, comm_);
    share(cfg_.steps_per_epoch, comm_);
    share(cfg_.eval_every, comm_);
    share(cfg_.lr, comm_);
  }

  void fit() {
    for (int epoch = 0; epoch < cfg_.epochs; ++epoch) {
      for (int s = 0; s < cfg_.steps_per_epoch; ++s) {
        double grad = cfg_.lr * (rank_ + s);
        MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_DOUBLE, MPI_SUM, comm_);
        weight_ -= grad;
      }
      if ((epoch + 1) % cfg_.eval_every == 0)
        evaluate(epoch);
    }
  }

private:
  void evaluate(int epoch) {
    double norm = weight_ * weight_;
    MPI_Allreduce(MPI_IN_PLACE, &norm, 1, MPI_DOUBLE, MPI_SUM, comm_);
    if (rank_ == 0)
      std::printf("epoch %d norm %.3f\n", epoch, norm);
  }

  MPI_Comm comm_;
  int rank_ = 0;
  double weight_ = 1.0;
  TrainConfig cfg_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Trainer trainer(MPI_COMM_WORLD, argc > 1 ? argv[1] : nullptr);
  trainer.fit();
  MPI_Finalize();
  return 0;
}
