// A Gloo process group built from Options::create() with devices filled in
// but no timeout: the 30-minute library default applies, so a stuck rank
// blocks the others for half an hour before anything fails.
// run: none -- the default timeout is 30 minutes; showing it takes that long
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <iostream>

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(); // expect-note: options created here
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  options->threads = 2;
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>( // expect: distlint-missing-timeout(note)
      store, rank, world_size, options);
  std::vector<at::Tensor> grads{torch::ones({4})};
  pg->allreduce(grads)->wait();
  std::cout << grads[0] << "\n";
}
