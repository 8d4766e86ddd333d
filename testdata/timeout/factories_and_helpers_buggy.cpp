// A trainer's process groups come out of project factories: make_group()
// builds the NCCL group with options from nccl_options(), a helper that
// returns them without a timeout, and make_gloo_group() builds the Gloo
// group with no options at all. The finding is where the group is created;
// the notes show where the options come from and which call made the group.
// run: none -- the default timeout is 30 minutes: a run would only prove it by hanging that long
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

using StorePtr = c10::intrusive_ptr<c10d::Store>;

namespace dist {

c10::intrusive_ptr<c10d::ProcessGroupNCCL::Options> nccl_options() {
  auto opts = c10d::ProcessGroupNCCL::Options::create(); // expect-note: options created here
  opts->is_high_priority_stream = true;
  return opts;
}

c10::intrusive_ptr<c10d::ProcessGroup> make_group(const StorePtr &store,
                                                  int rank, int world) {
  auto opts = nccl_options(); // expect-note: options returned by this call
  return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world, opts); // expect: distlint-missing-timeout(note)
}

c10::intrusive_ptr<c10d::ProcessGroup> make_gloo_group(const StorePtr &store,
                                                       int rank, int world) {
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world); // expect: distlint-missing-timeout(note)
}

} // namespace dist

struct Trainer {
  c10::intrusive_ptr<c10d::ProcessGroup> pg, cpu_pg;
  Trainer(const StorePtr &store, int rank, int world)
      : pg(dist::make_group(store, rank, world)), // expect-note: process group made by this call
        cpu_pg(dist::make_gloo_group(store, rank, world)) {} // expect-note: process group made by this call
};
