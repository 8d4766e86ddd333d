//===- WalkerHook.cpp - A stand-in hook for the stack walker tests ---------===//
//
// Built with frame pointers, like the preload library's hooks; its callers in
// StackWalkerTest.cpp are built without.
//
//===----------------------------------------------------------------------===//
#include "WalkerHook.h"

#include <dlfcn.h>
#include <link.h>

using namespace distlint::rt;

__attribute__((noinline)) void fakeHook(HookResult &Out) {
  void *Frame = __builtin_frame_address(0);
  captureCallSite(Frame, Out.Walked);
  captureCallSiteSlow(Frame, Out.Unwound);
  void *Ra = __builtin_return_address(0);
  Dl_info Info;
  link_map *Map = nullptr;
  if (dladdr1(Ra, &Info, reinterpret_cast<void **>(&Map), RTLD_DL_LINKMAP) && Map)
    Out.ExpectedOffset = uintptr_t(Ra) - 1 - Map->l_addr;
  asm volatile("" ::: "memory"); // Keep the calls above real calls.
}
