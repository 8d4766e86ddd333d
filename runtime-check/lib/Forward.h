//===- Forward.h - Find the real definition behind a hook -------*- C++ -*-===//
//
// A hook forwards to the next definition of its symbol (RTLD_NEXT); when the
// library was loaded privately (dlopen RTLD_LOCAL), to the library found by
// its soname. If there is none, the hook prints one line per API and returns
// that API's generic error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Support.h"

#include <atomic>

namespace distlint {
namespace rt {

/// Resolves Prefix + Name for a hook of the library known by Sonames
/// (null-ended).
void *findRealSymbol(const char *Name, const char *const *Sonames,
                     const char *Prefix = "");
/// Prints "<Api> call <Name> has no real definition ..." once per Api.
void reportMissingReal(const char *ApiName, const char *Name);

template <class Fn> struct RealFunction {
  std::atomic<void *> Ptr{nullptr};
  /// Prefix: the real symbol is Prefix + Name (PMPI_ for MPI_).
  Fn get(const char *Name, const char *const *Sonames,
         const char *Prefix = "") {
    void *P = Ptr.load(std::memory_order_relaxed);
    if (DLRT_LIKELY(P))
      return reinterpret_cast<Fn>(P);
    P = findRealSymbol(Name, Sonames, Prefix);
    if (P)
      Ptr.store(P, std::memory_order_relaxed);
    return reinterpret_cast<Fn>(P);
  }
};

} // namespace rt
} // namespace distlint
