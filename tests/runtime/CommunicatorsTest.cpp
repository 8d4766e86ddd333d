//===- CommunicatorsTest.cpp - The communicator table and its memo --------===//
#include "Runtime.h"

#include <gtest/gtest.h>

#include <thread>

using namespace distlint::rt;

namespace {

// Handles no real library hands out, distinct per test.
uintptr_t handle(unsigned N) { return 0x7f0000001000ull + 0x40ull * N; }

TEST(Communicators, MemoAnswersLikeTheTable) {
  CommState *A = addComm(Api::Mpi, handle(1), 11, 0, 2);
  CommState *B = addComm(Api::Mpi, handle(2), 22, 1, 4);
  ASSERT_NE(A, nullptr);
  ASSERT_NE(B, nullptr);
  for (int Round = 0; Round < 3; ++Round) { // Hits after the first lookup.
    EXPECT_EQ(findComm(Api::Mpi, handle(1)), A);
    EXPECT_EQ(findComm(Api::Mpi, handle(1)), A);
    EXPECT_EQ(findComm(Api::Mpi, handle(2)), B);
  }
  // The same handle under another API is another communicator, also right
  // after the first was found.
  EXPECT_EQ(findComm(Api::Mpi, handle(1)), A);
  EXPECT_EQ(findComm(Api::Nccl, handle(1)), nullptr);
  EXPECT_EQ(findComm(Api::Mpi, handle(1)), A);
  EXPECT_EQ(findComm(Api::Mpi, handle(3)), nullptr);
}

TEST(Communicators, DroppedIsGoneAndAReusedHandleIsNew) {
  CommState *A = addComm(Api::Nccl, handle(4), 44, 0, 2);
  ASSERT_EQ(findComm(Api::Nccl, handle(4)), A); // Now remembered.
  dropComm(A);
  EXPECT_EQ(findComm(Api::Nccl, handle(4)), nullptr);
  // The library hands the freed address out again: a new state, found at
  // once, with its own id and size.
  CommState *Again = addComm(Api::Nccl, handle(4), 55, 1, 8);
  CommState *Found = findComm(Api::Nccl, handle(4));
  ASSERT_NE(Found, nullptr);
  EXPECT_EQ(Found, Again);
  EXPECT_EQ(Found->Id, 55u);
  EXPECT_EQ(Found->Size, 8);
}

TEST(Communicators, ADropOnAnotherThreadReachesTheMemo) {
  CommState *A = addComm(Api::C10d, handle(5), 66, 0, 2);
  ASSERT_EQ(findComm(Api::C10d, handle(5)), A);
  std::thread([&] {
    EXPECT_EQ(findComm(Api::C10d, handle(5)), A);
    dropComm(A);
  }).join();
  EXPECT_EQ(findComm(Api::C10d, handle(5)), nullptr);
}

} // namespace
