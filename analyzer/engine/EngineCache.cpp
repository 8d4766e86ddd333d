//===- EngineCache.cpp ----------------------------------------------------===//
//
// The storage is keyed by ASTContext (an Engine lives for one TU) and emptied
// when the ASTContext is destroyed, so a later TU can never see state that
// points into a freed AST. Threads analyze different TUs; a mutex guards only
// the map itself.
//
//===----------------------------------------------------------------------===//
#include "EngineCache.h"

#include <map>
#include <mutex>

using namespace clang;

namespace distlint {

EngineExtension::~EngineExtension() = default;

namespace {
struct ContextSlots {
  const Engine *Owner = nullptr;
  std::map<const void *, std::unique_ptr<EngineExtension>> Slots;
};
struct Registry {
  std::mutex Lock;
  std::map<const ASTContext *, ContextSlots> ByContext;
};
Registry &registry() {
  static Registry R;
  return R;
}
void dropContext(void *Ctx) {
  Registry &R = registry();
  ContextSlots Taken;
  {
    std::lock_guard<std::mutex> Guard(R.Lock);
    auto It = R.ByContext.find(static_cast<const ASTContext *>(Ctx));
    if (It == R.ByContext.end())
      return;
    Taken = std::move(It->second);
    R.ByContext.erase(It);
  }
  // Destructors run outside the lock.
}

/// The slots of E's context, reset when a different Engine took over.
ContextSlots &slotsOf(Registry &R, Engine &E) {
  ASTContext &Ctx = E.context();
  auto [It, Inserted] = R.ByContext.try_emplace(&Ctx);
  if (Inserted)
    Ctx.AddDeallocation(&dropContext, &Ctx);
  if (It->second.Owner != &E) {
    It->second.Slots.clear();
    It->second.Owner = &E;
  }
  return It->second;
}
} // namespace

EngineExtension *findEngineExtension(Engine &E, const void *Key) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  ContextSlots &S = slotsOf(R, E);
  auto It = S.Slots.find(Key);
  return It == S.Slots.end() ? nullptr : It->second.get();
}

EngineExtension &setEngineExtension(Engine &E, const void *Key,
                                    std::unique_ptr<EngineExtension> Ext) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  ContextSlots &S = slotsOf(R, E);
  auto &Slot = S.Slots[Key];
  if (!Slot)
    Slot = std::move(Ext);
  return *Slot;
}

} // namespace distlint
