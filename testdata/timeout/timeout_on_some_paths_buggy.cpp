// The timeout is only set when an environment variable is present; on the
// other path the options keep the library default. A second group re-seats
// its options pointer after the timeout was set.
// run: none -- the default timeout is 30 minutes; showing it takes that long
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>

using Gloo = c10d::ProcessGroupGloo;

c10::intrusive_ptr<Gloo> make_group(const c10::intrusive_ptr<c10d::Store> &store,
                                    int rank, int size) {
  auto opts = Gloo::Options::create(); // expect-note: options created here
  opts->devices.push_back(Gloo::createDefaultDevice());
  if (const char *ms = std::getenv("PG_TIMEOUT_MS"))
    opts->timeout = std::chrono::milliseconds(std::atoi(ms));
  return c10::make_intrusive<Gloo>(store, rank, size, opts); // expect: distlint-missing-timeout(note)
}

c10::intrusive_ptr<Gloo> make_side_group(const c10::intrusive_ptr<c10d::Store> &store,
                                         int rank, int size) {
  auto opts = Gloo::Options::create(std::chrono::seconds(60)); // expect-note: options created here
  opts->devices.push_back(Gloo::createDefaultDevice());
  if (size > 8)
    opts = Gloo::Options::create();
  return c10::make_intrusive<Gloo>(store, rank, size, opts); // expect: distlint-missing-timeout(note)
}
