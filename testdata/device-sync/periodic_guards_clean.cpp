// Every sync here runs only on some steps: the usual `step % N == 0`,
// `(i + 1) % every`, an early `continue`, a flag computed from a modulo, a
// predicate helper, a countdown counter that the guarded code resets, a
// next-log threshold that it advances, and a mask test.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <torch/torch.h>

#include <iostream>

static bool should_log(int64_t step, int64_t every) {
  return step > 0 && step % every == 0;
}

void train(torch::nn::Linear &model, torch::optim::SGD &opt, int64_t steps,
           int64_t log_every) {
  model->to(torch::kCUDA);
  int since_log = 0;
  int64_t next_report = 100;
  for (int64_t i = 0; i < steps; ++i) {
    auto loss = model->forward(torch::randn({4, 8}, torch::kCUDA)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (i % log_every == 0)
      std::cout << loss.item<float>() << "\n";
    if ((i + 1) % 500 == 0)
      torch::cuda::synchronize();
    const bool checkpoint_now = (i % 1000) == 999;
    if (checkpoint_now)
      std::cout << "ckpt at loss " << loss << "\n";
    if (should_log(i, log_every))
      std::cout << loss.cpu() << "\n";
    if (++since_log == 50) {
      since_log = 0;
      std::cout << loss.item<double>() << "\n";
    }
    if (i >= next_report) {
      next_report += 100;
      std::cout << loss.item<float>() << "\n";
    }
    if ((i & 255) == 0)
      std::cout << loss.item<float>() << "\n";
    if (i != steps - 1)
      continue;
    std::cout << "final loss " << loss.item<float>() << "\n";
  }
}
