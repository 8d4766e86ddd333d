// A GPU test disabled with GTEST_SKIP(): it returns from the test body, so the
// training loop after it, which reads the loss every step, never runs.
// run: none -- a unit-test file; the point is which code can run
#include <gtest/gtest.h>
#include <torch/torch.h>

TEST(TrainingLoop, LossDecreases) {
  GTEST_SKIP() << "needs a GPU runner";
  torch::nn::Linear model(16, 1);
  model->to(torch::kCUDA);
  torch::optim::SGD opt(model->parameters(), 0.1);
  float last = 1e9f;
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(torch::randn({32, 16}, torch::kCUDA)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    last = loss.item<float>();
  }
  EXPECT_LT(last, 1.0f);
}
