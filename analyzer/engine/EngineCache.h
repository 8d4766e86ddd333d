//===- EngineCache.h - Per-TU state of engine facilities -------*- C++ -*-===//
//
// Engine facilities that live outside Engine.cpp (Loops, Devices, ObjectFlow,
// HostReads...) keep their memo tables here, one instance per Engine and
// facility type, created on first use and dropped with the ASTContext.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Engine.h"

#include <memory>

namespace distlint {

/// Base of a facility's per-TU state.
struct EngineExtension {
  virtual ~EngineExtension();
};

/// The slot for Key in E's extension storage (null until set).
EngineExtension *findEngineExtension(Engine &E, const void *Key);
EngineExtension &setEngineExtension(Engine &E, const void *Key,
                                    std::unique_ptr<EngineExtension> Ext);

/// The per-TU state T of facility T (T must be constructible from Engine&).
template <class T> T &engineExtension(Engine &E) {
  static const char Key = 0;
  if (EngineExtension *Found = findEngineExtension(E, &Key))
    return static_cast<T &>(*Found);
  return static_cast<T &>(setEngineExtension(E, &Key, std::make_unique<T>(E)));
}

} // namespace distlint
