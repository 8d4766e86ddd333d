//===- Intercept.h - The one way a hook is written --------------*- C++ -*-===//
//
// Every hook of the preload library, whatever API it belongs to, is written
// the same way (after compiler-rt's interceptors):
//
//   INTERCEPTOR(ncclResult_t, ncclAllReduce, const void *Send, ...) {
//     HOOK_ENTER(ncclAllReduce, Send, ...);   // the one entry guard
//     return recordNccl(..., [&] { return Real(Send, ...); });
//   }
//
// A hook file first names its API family, `using Family = NcclFamily;`: a
// type with the API's name (Api), the sonames of its library (Sonames), the
// prefix of the symbol a hook forwards to (RealPrefix: MPI hooks forward to
// the PMPI_ profiling twin), whether a hook without a real definition must
// stop the process (MustExist: a C++ method has nothing to return) and what
// it returns otherwise (missing()).
//
// REAL(Name) is the definition the hook Name hides, resolved once per use
// site; INTERCEPTOR_AS exports a hook under another symbol (a LibTorch
// method's mangled name), and REAL() of such a hook resolves that symbol.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Forward.h"
#include "OpRecord.h"
#include "Runtime.h"
#include "Support.h"

#include <cstdlib>

namespace distlint {
namespace rt {

/// The symbol the hook at Hook is exported as, when it is not its C name
/// (set by INTERCEPTOR_AS).
template <auto Hook> inline constexpr const char *ExportedAs = nullptr;

template <auto Hook> constexpr const char *symbolOf(const char *CName) {
  return ExportedAs<Hook> ? ExportedAs<Hook> : CName;
}

/// The definition behind Symbol in Family's library; null when there is
/// none, unless the family cannot go on without it.
template <class Family, class Fn>
Fn realFor(RealFunction<Fn> &Slot, const char *Symbol) {
  Fn F = Slot.get(Symbol, Family::Sonames, Family::RealPrefix);
  if constexpr (Family::MustExist) {
    if (DLRT_UNLIKELY(!F)) {
      logLine("%s %s has no definition to forward to", Family::Api, Symbol);
      abort();
    }
  }
  return F;
}

/// The start every recorded call shares: the trace (none while recording is
/// off or failed: the hook makes the bare call), the reentrancy scope for
/// the rest of the hook (calls the library makes of itself are not
/// recorded again) and the user's call-site:
///   RecordedCall Rec(HOOK_FRAME);
///   if (!Rec)
///     return Real();
///   OpHandle H = beginOp(*Rec.trace(), D, Rec.site(), ...);
class RecordedCall {
public:
  explicit RecordedCall(void *HookFrame) : T(rt::trace()) {
    if (T) {
      ++HookDepth;
      captureCallSite(HookFrame, Site);
    }
  }
  ~RecordedCall() {
    if (T)
      --HookDepth;
  }
  RecordedCall(const RecordedCall &) = delete;
  RecordedCall &operator=(const RecordedCall &) = delete;
  explicit operator bool() const { return T != nullptr; }
  TraceWriter *trace() const { return T; }
  const CallSite &site() const { return Site; }

private:
  TraceWriter *T;
  CallSite Site;
};

} // namespace rt
} // namespace distlint

#define DLRT_INTERFACE __attribute__((visibility("default"), noinline))

/// The hook's own frame: where the walk to the user's call-site starts
/// (hooks are noinline, so it is always there).
#define HOOK_FRAME __builtin_frame_address(0)

/// Defines the hook Name, exported under its own name.
#define INTERCEPTOR(Ret, Name, ...)                                            \
  extern "C" DLRT_INTERFACE Ret Name(__VA_ARGS__)

/// Defines the hook Name, exported as Symbol.
#define INTERCEPTOR_AS(Ret, Name, Symbol, ...)                                 \
  extern "C" DLRT_INTERFACE Ret Name(__VA_ARGS__) __asm__(Symbol);             \
  namespace distlint {                                                         \
  namespace rt {                                                               \
  template <> inline constexpr const char *ExportedAs<&::Name> = Symbol;       \
  }                                                                            \
  }                                                                            \
  extern "C" Ret Name(__VA_ARGS__)

/// The real definition of the hooked (or any declared) function Name.
#define REAL(Name)                                                             \
  ([] {                                                                        \
    static ::distlint::rt::RealFunction<decltype(&::Name)> Slot;               \
    return ::distlint::rt::realFor<Family>(                                    \
        Slot, ::distlint::rt::symbolOf<&::Name>(#Name));                       \
  }())

/// The entry guard every C hook starts with: the family's error when no
/// library defines the real function; the bare real call when the hook was
/// entered from inside another (the library calling itself, the runtime's
/// own calls), so nothing is recorded twice. Leaves `Real` in scope.
#define HOOK_ENTER(Name, ...)                                                  \
  auto Real = REAL(Name);                                                      \
  if (DLRT_UNLIKELY(!Real))                                                    \
    return Family::missing(#Name);                                             \
  if (::distlint::rt::insideHook())                                            \
  return Real(__VA_ARGS__)
