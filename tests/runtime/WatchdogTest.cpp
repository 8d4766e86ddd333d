//===- WatchdogTest.cpp - What the watchdog calls a hang
//-------------------===//
#include "OpRecord.h"
#include "PendingTable.h"
#include "Runtime.h"
#include "TraceWriter.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

using namespace distlint::rt;

namespace {

std::string tempDir() {
  char Template[] = "/tmp/dlrt-watchdog-XXXXXX";
  return mkdtemp(Template) ? std::string(Template) : std::string();
}

} // namespace

// The watchdog reads the clock once per look; an operation that starts
// while it looks has waited no time at all, not "2^64 ns" (a wrapped
// difference once reported clean programs as hung).
TEST(Watchdog, EntryStartedAfterTheClockReadIsNotAHang) {
  std::string Dir = tempDir();
  ASSERT_FALSE(Dir.empty());
  TraceOptions O;
  O.Dir = Dir;
  O.Records = 64;
  std::string Error;
  std::unique_ptr<TraceWriter> W(TraceWriter::create(O, Error));
  ASSERT_NE(W, nullptr) << Error;

  const uint64_t Timeout = config().TimeoutNs;
  const uint64_t Now = monotonicNs() + 2 * Timeout;
  int32_t Later =
      claimPending(kNoSlot, Now + 1000000, nullptr, OpCode::MpiBarrier, 0);
  ASSERT_GE(Later, 0);
  pollOnce(*W, Now, nullptr);
  EXPECT_EQ(W->header().HangCount.load(), 0u);

  // One that has waited past the timeout is reported, once.
  int32_t Old =
      claimPending(kNoSlot, Now - Timeout - 1, nullptr, OpCode::MpiBarrier, 0);
  ASSERT_GE(Old, 0);
  pollOnce(*W, Now, nullptr);
  pollOnce(*W, Now, nullptr);
  EXPECT_EQ(W->header().HangCount.load(), 1u);
  freeEntry(Later);
  freeEntry(Old);
  std::system(("rm -rf " + Dir).c_str());
}
