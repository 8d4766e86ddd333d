// Per-step reads of device data on the host. A copy whose value the host
// tests to decide the step (a device-to-host cudaMemcpy of the loss for an
// early stop, torch::equal and is_nonzero in a branch) is needed and not
// reported; a host copy nobody tests (to(torch::kCPU) kept aside) is stray.
// The host-to-device copy of the next batch is not what this rule reports.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>
#include <torch/torch.h>

void step_kernel(float *params, float *loss, cudaStream_t s);

void raw_loop(ncclComm_t comm, float *params, float *d_loss, float *d_batch,
              const float *h_batch, size_t n, cudaStream_t s) {
  float h_loss = 0;
  for (int it = 0; it < 1000; ++it) {
    cudaMemcpy(d_batch, h_batch, n * sizeof(float), cudaMemcpyHostToDevice);
    step_kernel(params, d_loss, s);
    ncclAllReduce(params, params, n, ncclFloat, ncclAvg, comm, s);
    // The mean loss: every rank leaves the loop at the same step.
    ncclAllReduce(d_loss, d_loss, 1, ncclFloat, ncclAvg, comm, s);
    cudaMemcpy(&h_loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost); // decides: the early stop
    if (h_loss < 1e-3f)
      break;
  }
}

void torch_loop(torch::nn::Linear &model, torch::optim::SGD &opt) {
  auto best = torch::zeros({1}, torch::kCUDA);
  for (int epoch = 0; epoch < 3; ++epoch)
    for (int it = 0; it < 100; ++it) {
      auto loss = model->forward(torch::randn({4, 2}, torch::kCUDA)).sum();
      loss.backward();
      opt.step();
      if (torch::equal(loss, best)) // decides: a branch
        continue;
      if (loss.isnan().any().is_nonzero()) // decides: a branch
        break;
      auto host = loss.detach().to(torch::kCPU); // expect: distlint-stray-device-sync
      (void)host;
    }
}
