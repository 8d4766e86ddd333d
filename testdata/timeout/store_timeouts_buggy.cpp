// Stores whose waits never time out: TCPStoreOptions with kNoTimeout, the
// deprecated TCPStore constructor with a zero timeout, and setTimeout with
// more than a day on a FileStore.
// run: none -- the point is that nothing ever times out
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <string>

c10::intrusive_ptr<c10d::Store> rendezvous(const std::string &host, int rank,
                                           int size) {
  c10d::TCPStoreOptions opts;
  opts.port = 29501;
  opts.isServer = rank == 0;
  opts.numWorkers = size;
  opts.timeout = c10d::Store::kNoTimeout; // expect: distlint-missing-timeout
  auto store = c10::make_intrusive<c10d::TCPStore>(host, opts);

  c10d::TCPStore legacy(host, 29502, size, rank == 0,
                        std::chrono::milliseconds::zero()); // expect: distlint-missing-timeout
  (void)legacy;

  auto file = c10::make_intrusive<c10d::FileStore>("/tmp/rdzv", size);
  file->setTimeout(std::chrono::hours(25)); // expect: distlint-missing-timeout
  return store;
}
