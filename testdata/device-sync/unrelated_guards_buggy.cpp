// Guards that do not make a sync rare: a verbosity flag and a rank check
// are true on every step of the ranks that print, and an infinite loop with
// a step counter still syncs every iteration.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <torch/torch.h>

#include <iostream>

struct Options {
  bool verbose = false;
  int64_t max_steps = 1000;
};

void train(torch::nn::Linear &model, torch::optim::SGD &opt, int rank,
           const Options &options) {
  model->to(torch::Device("cuda:0"));
  int64_t step = 0;
  while (true) {
    auto loss = model->forward(torch::randn({8, 4}, torch::kCUDA)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (options.verbose)
      std::cout << "loss " << loss.item<float>() << "\n"; // expect: distlint-stray-device-sync
    if (rank == 0 && step > 10)
      std::cout << loss.cpu() << "\n"; // expect: distlint-stray-device-sync
    if (++step == options.max_steps)
      break;
  }
}
