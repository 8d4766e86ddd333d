// A step loop that waits for the whole device every step through a helper
// of device.cpp (reported at the call), and reads the loss back through
// another only every 100 steps (not reported).
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include "device.h"

#include <torch/torch.h>

#include <cstdio>

void train(torch::nn::Linear &model, torch::optim::SGD &opt, int64_t steps,
           const float *device_loss) {
  model->to(torch::kCUDA);
  for (int64_t step = 0; step < steps; ++step) {
    auto loss = model->forward(torch::randn({8, 4}, torch::kCUDA)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    xtu::waitForDevice(); // expect: distlint-stray-device-sync
    if (step % 100 == 0)
      std::printf("loss %f\n", xtu::readBack(device_loss));
  }
}
