// A mixture-of-experts model marks which experts received gradients (the
// marks are written in a method, in a loop over the tokens it is given);
// the reducer then all-reduces only the marked parameters, one bucket
// each. Every rank routes the same tokens for a step (the batch is
// shared; each rank computes a slice of the experts' work), so every rank
// marks the same experts and issues the same all-reduces.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <vector>

struct Param {
  std::vector<float> grad;
  bool has_grad = false;
};

class MoeModel {
public:
  explicit MoeModel(int experts) : params_(experts + 2) {
    for (Param &p : params_)
      p.grad.assign(8, 0.0f);
  }
  void backward(const std::vector<int> &tokens) {
    for (Param &p : params_)
      p.has_grad = false;
    params_.front().has_grad = true; // the gate
    params_.back().has_grad = true;  // the head
    const int experts = static_cast<int>(params_.size()) - 2;
    for (int t : tokens)
      params_[1 + t % experts].has_grad = true;
    for (Param &p : params_)
      if (p.has_grad)
        for (float &g : p.grad)
          g += 0.5f;
  }
  std::vector<Param> &params() { return params_; }

private:
  std::vector<Param> params_;
};

static void reduce_used(std::vector<Param> &params) {
  for (Param &p : params) {
    if (!p.has_grad)
      continue; // an expert no token of the batch reached
    MPI_Allreduce(MPI_IN_PLACE, p.grad.data(), static_cast<int>(p.grad.size()),
                  MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }
}

static std::vector<int> route_tokens(int step) {
  std::vector<int> tokens;
  for (int t = 0; t <= step; ++t)
    tokens.push_back(t + step);
  return tokens;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MoeModel model(4);
  for (int step = 0; step < 2; ++step) {
    model.backward(route_tokens(step));
    reduce_used(model.params());
  }
  if (rank == 0)
    std::printf("head grad %f\n", model.params().back().grad[0]);
  MPI_Finalize();
  return 0;
}
