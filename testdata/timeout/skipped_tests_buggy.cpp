// A gtest suite of c10d stores. GTEST_SKIP() returns from the test body, so
// the store an unconditionally skipped test would create never exists: no
// finding there. A test that skips only when its environment lacks
// something still runs its body elsewhere, and its store never times out.
// run: none -- a unit-test file; the point is which code can run
// libtorch: 1.13
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdlib>

TEST(StoreTest, DisabledUntilTheNetworkIsBack) {
  GTEST_SKIP() << "needs a second host";
  c10d::TCPStore store("10.0.0.2", 29500, 2, false,
                       std::chrono::milliseconds::zero());
  store.set("key", {1, 2, 3});
}

TEST(StoreTest, NeedsTheServerHost) {
  if (!std::getenv("STORE_HOST"))
    GTEST_SKIP() << "STORE_HOST not set";
  c10d::TCPStore store(std::getenv("STORE_HOST"), 29500, 2, false,
                       std::chrono::milliseconds::zero()); // expect: distlint-missing-timeout
  store.set("key", {1, 2, 3});
}
