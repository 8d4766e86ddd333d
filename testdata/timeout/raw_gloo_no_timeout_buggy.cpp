// Raw Gloo (no c10d): a rendezvous context whose timeout is switched off
// with gloo::kNoTimeout waits forever for a peer that died; the second
// context keeps a finite one.
// run: none -- a hang with no timeout can only be shown by waiting forever
#include <gloo/context.h>

#include <chrono>
#include <memory>

void configure(const std::shared_ptr<gloo::Context> &context,
               gloo::Context &side) {
  context->setTimeout(gloo::kNoTimeout); // expect: distlint-missing-timeout
  side.setTimeout(std::chrono::seconds(60));
}
