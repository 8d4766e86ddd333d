//===- Pinned.h - A handle that keeps a cached object resident ------------===//
//
// The engine's result cache drops what nobody holds once it is full
// (Budget::ResultCacheBytes). A Pinned<T> counts as a holder for as long as it
// lives: it bumps its owner's pin count and gives it back when destroyed or
// moved from. Move-only, so a pin is never counted twice.
//
//===----------------------------------------------------------------------===//

#ifndef DISTLINT_ENGINE_PINNED_H
#define DISTLINT_ENGINE_PINNED_H

#include <utility>

namespace distlint {

template <typename T> class Pinned {
public:
  Pinned() = default;
  /// Pins: the owner's count of holders (null for objects it never drops).
  Pinned(T *Ptr, unsigned *Pins) : Ptr(Ptr), Pins(Ptr ? Pins : nullptr) {
    if (this->Pins)
      ++*this->Pins;
  }
  Pinned(Pinned &&O) noexcept : Ptr(O.Ptr), Pins(O.Pins) {
    O.Ptr = nullptr;
    O.Pins = nullptr;
  }
  Pinned &operator=(Pinned &&O) noexcept {
    std::swap(Ptr, O.Ptr);
    std::swap(Pins, O.Pins);
    return *this;
  }
  Pinned(const Pinned &) = delete;
  Pinned &operator=(const Pinned &) = delete;
  ~Pinned() {
    if (Pins)
      --*Pins;
  }

  T *get() const { return Ptr; }
  T *operator->() const { return Ptr; }
  T &operator*() const { return *Ptr; }
  explicit operator bool() const { return Ptr != nullptr; }

private:
  T *Ptr = nullptr;
  unsigned *Pins = nullptr;
};

} // namespace distlint

#endif
