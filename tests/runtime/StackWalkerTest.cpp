//===- StackWalkerTest.cpp - The cached call-site walk equals DWARF's -----===//
#include "WalkerHook.h"

#include <gtest/gtest.h>

#include <alloca.h>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

using namespace distlint::rt;

namespace {

__attribute__((noinline)) void leaf(HookResult &R) {
  fakeHook(R);
  asm volatile("");
}

__attribute__((noinline)) void recurse(HookResult &R, int Depth) {
  if (Depth == 0)
    leaf(R);
  else
    recurse(R, Depth - 1);
  asm volatile("");
}

// alloca forces a frame pointer and a frame whose size varies per call.
__attribute__((noinline)) void dynamicFrame(HookResult &R, size_t Bytes) {
  char *Buffer = static_cast<char *>(alloca(Bytes));
  std::memset(Buffer, 1, Bytes);
  asm volatile("" : : "r"(Buffer) : "memory");
  fakeHook(R);
  asm volatile("");
}

__attribute__((noinline)) void viaDynamic(HookResult &R, size_t Bytes) {
  dynamicFrame(R, Bytes);
  asm volatile("");
}

HookResult *Sorting;
bool HookedThisSort;
int compareAndHook(const void *A, const void *B) {
  if (!HookedThisSort) { // Once per qsort: libc frames sit between us and the caller.
    HookedThisSort = true;
    fakeHook(*Sorting);
  }
  return *static_cast<const int *>(A) - *static_cast<const int *>(B);
}

__attribute__((noinline)) void sortAndHook(HookResult &R) {
  int Values[] = {3, 1, 2};
  Sorting = &R;
  HookedThisSort = false;
  qsort(Values, 3, sizeof(int), compareAndHook);
  asm volatile("");
}

void expectSame(const HookResult &R) {
  for (unsigned I = 0; I < kRecordFrames; ++I)
    EXPECT_EQ(R.Walked.Frames[I], R.Unwound.Frames[I]) << "frame " << I;
}

} // namespace

TEST(StackWalker, FirstFrameIsTheHooksCaller) {
  HookResult R;
  leaf(R);
  ASSERT_TRUE(frameValid(R.Unwound.Frames[0]));
  EXPECT_EQ(frameOffset(R.Unwound.Frames[0]), R.ExpectedOffset);
  EXPECT_TRUE(frameValid(R.Unwound.Frames[1]));
  expectSame(R);
}

TEST(StackWalker, CachedWalkMatchesTheUnwinderOnMixedPaths) {
  std::mt19937 Random(7);
  WalkerStats Before = walkerStats();
  for (int I = 0; I < 600; ++I) {
    HookResult R;
    switch (Random() % 4) {
    case 0:
      leaf(R);
      break;
    case 1:
      recurse(R, int(Random() % 6));
      break;
    case 2:
      viaDynamic(R, 16 + 16 * (Random() % 200));
      break;
    case 3:
      sortAndHook(R);
      break;
    }
    expectSame(R);
    if (HasFailure())
      return;
  }
  WalkerStats After = walkerStats();
  // The walker learned the paths: most walks no longer unwind.
  EXPECT_GT(After.FastWalks - Before.FastWalks, 300u);
}

TEST(StackWalker, LibraryFramesAreSkipped) {
  HookResult R;
  sortAndHook(R);
  // Frame 0 is in the comparator, frame 1 in sortAndHook: qsort's libc
  // frames in between are not user frames.
  ASSERT_TRUE(frameValid(R.Unwound.Frames[1]));
  EXPECT_EQ(frameModule(R.Unwound.Frames[0]), frameModule(R.Unwound.Frames[1]));
  expectSame(R);
}

TEST(StackWalker, WorksOnOtherThreads) {
  bool Ok = true;
  std::thread T([&] {
    for (int I = 0; I < 50; ++I) {
      HookResult R;
      recurse(R, I % 3);
      for (unsigned F = 0; F < kRecordFrames; ++F)
        Ok &= R.Walked.Frames[F] == R.Unwound.Frames[F];
    }
  });
  T.join();
  EXPECT_TRUE(Ok);
}

TEST(StackWalker, SkipsCommunicationAndRuntimeLibraries) {
  EXPECT_TRUE(isSkippedModulePath("/usr/lib/x86_64-linux-gnu/libnccl.so.2"));
  EXPECT_TRUE(isSkippedModulePath("/opt/torch/lib/libtorch_cuda.so"));
  EXPECT_TRUE(isSkippedModulePath("/opt/torch/lib/libc10.so"));
  EXPECT_TRUE(isSkippedModulePath("/usr/lib/x86_64-linux-gnu/libmpi.so.40"));
  EXPECT_TRUE(isSkippedModulePath("/lib/x86_64-linux-gnu/libc.so.6"));
  EXPECT_TRUE(isSkippedModulePath("/build/lib/libdistlint-rt.so"));
  EXPECT_FALSE(isSkippedModulePath("/home/me/train"));
  EXPECT_FALSE(isSkippedModulePath("/home/me/libmodel.so"));
  setenv("DISTLINT_RT_SKIP", "libmodel,vendor/", 1);
  EXPECT_TRUE(isSkippedModulePath("/home/me/libmodel.so"));
  EXPECT_TRUE(isSkippedModulePath("/opt/vendor/libx.so"));
  unsetenv("DISTLINT_RT_SKIP");
}
