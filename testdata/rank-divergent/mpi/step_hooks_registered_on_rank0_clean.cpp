// Step-end hooks kept in a vector of std::function: every rank registers
// the gradient sync; rank 0 also registers a logging hook that only prints.
// The hook loop runs one more callable on rank 0, but that one issues no
// collective: every rank issues the same all-reduces in the same order.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <vector>

using StepHook = std::function<void(int step, double loss)>;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<double> grads(256, 1.0);

  std::vector<StepHook> hooks;
  hooks.push_back([&](int, double) {
    MPI_Allreduce(MPI_IN_PLACE, grads.data(), (int)grads.size(), MPI_DOUBLE,
                  MPI_SUM, MPI_COMM_WORLD);
  });
  if (rank == 0)
    hooks.push_back([](int step, double loss) {
      std::printf("step %d: loss %g\n", step, loss);
    });

  for (int step = 0; step < 10; ++step) {
    double loss = 1.0 / (step + 1);
    for (auto &hook : hooks)
      hook(step, loss);
  }
  MPI_Finalize();
  return 0;
}
