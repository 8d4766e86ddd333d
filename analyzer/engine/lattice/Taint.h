//===- Taint.h - Abstract values of the rank-uniformity data-flow -*- C++
//-*-===//
//
// A value is either the same on every rank or may differ (Vary). Values
// that depend on a function's parameters carry a parameter mask so callers
// can substitute their arguments (function summaries). Integers also carry
// an interval whose bounds are linear in the world size W (W >= 1), so that
// `rank < size` or `rank >= 0` are known to hold on every rank.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"

#include "llvm/ADT/Hashing.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace clang {
class FieldDecl;
class VarDecl;
} // namespace clang

namespace distlint {

/// a * W + c, with W the world size.
struct LinearBound {
  int64_t W = 0;
  int64_t C = 0;
  bool operator==(const LinearBound &O) const { return W == O.W && C == O.C; }
};

struct IntRange {
  LinearBound Lo, Hi;
  bool operator==(const IntRange &O) const { return Lo == O.Lo && Hi == O.Hi; }
};

/// true when L - R < 0 for every W >= 1.
inline bool alwaysNegative(LinearBound D) { return D.W <= 0 && D.W + D.C < 0; }
inline LinearBound sub(LinearBound A, LinearBound B) {
  return {A.W - B.W, A.C - B.C};
}

/// Bounds compared as (slope in W, value at W = 1): A <= B for every
/// W >= 1 exactly when both coordinates are <=, so the componentwise
/// min / max is the tightest bound of this form below / above both.
inline LinearBound lowerOf(LinearBound A, LinearBound B) {
  int64_t W = std::min(A.W, B.W);
  return {W, std::min(A.W + A.C, B.W + B.C) - W};
}
inline LinearBound upperOf(LinearBound A, LinearBound B) {
  int64_t W = std::max(A.W, B.W);
  return {W, std::max(A.W + A.C, B.W + B.C) - W};
}
/// Smallest interval of this form holding both.
inline IntRange hull(const IntRange &A, const IntRange &B) {
  return {lowerOf(A.Lo, B.Lo), upperOf(A.Hi, B.Hi)};
}

/// The name of element Index of a broadcast's message (Taint::MessageKey).
inline uint64_t messageElementKey(uint64_t Message, int64_t Index) {
  return llvm::hash_combine(Message, Index) | 1;
}

/// The launcher variable a string names (`"RANK"`, `"WORLD_SIZE"`).
enum class LauncherVariable : uint8_t { None, Rank, WorldSize };

struct Taint {
  bool Vary = false;
  VaryOrigin Origin;   ///< Meaningful when Vary.
  uint64_t Params = 0; ///< Bit i: depends on parameter i.
  /// Of Params, those that reach only the elements of a sequence, not its
  /// length (`buf[0] = loss` in a buffer of n): its size() depends on the
  /// others. Meaningful on value sequences only (UniformityAnalysis::eval).
  uint64_t ElementParams = 0;
  /// Of Params, those whose values, not only their shapes, decide this
  /// value's shape (`(p.abs() > t).nonzero()`): an argument that differs in
  /// its values only gives a result of another shape (argumentTaint).
  uint64_t ShapeParams = 0;
  /// Of Params, those that reach this value only through their shape
  /// (`x.size(0)`, `v.size()` of a parameter): an argument that differs in
  /// its values only leaves it alone (argumentTaint, Engine::paramVaries).
  uint64_t SizeParams = 0;
  /// Tensor / buffer contents proven equal on all ranks (after a collective).
  bool UniformContent = false;
  /// When Vary: only the elements differ, not the length (a vector filled
  /// with local values). Shape queries (size(), numel()) stay uniform.
  /// With Params only: what the callers pass reaches the elements only.
  bool ContentOnly = false;
  /// When Vary: only the object a pointer designates differs (mutated on
  /// some ranks through `p->`), not the pointer: `!p`, `p == nullptr` and
  /// `if (p)` stay uniform (see pointerValue).
  bool PointeeOnly = false;
  std::optional<IntRange> Range;
  /// A pointer known not to be null (getenv of a variable the launcher
  /// always sets).
  bool NonNull = false;
  /// A string naming a launcher variable: getenv() with it reads that
  /// variable (through helpers too).
  LauncherVariable LauncherVar = LauncherVariable::None;
  /// Tensors: a hash of the shape when it is a known constant (built by
  /// `zeros({1})`, `reshape({1})`...); 0 = unknown.
  uint64_t ShapeKey = 0;
  /// When the shape varies (shapeVaries()): the dimensions whose extent may
  /// differ between ranks, bit d for dimension d (the last bit for every
  /// dimension from it on). `randn({local_rows, 6})` differs in dimension 0
  /// only, so `narrow(0, 0, agreed)` of it has one shape on every rank.
  uint8_t VaryingDims = AllDims;
  static constexpr uint8_t AllDims = 0xFF;
  static constexpr uint8_t dimBit(int64_t D) {
    return D < 0 ? AllDims : D >= 7 ? uint8_t(0x80) : uint8_t(1u << D);
  }
  /// A uniform value named by the side-effect-free expression it was
  /// assigned from (a hash of its structure and declarations; 0 = none):
  /// two arms that assign `rows = cfg.vocab` leave the same value.
  uint64_t ValueKey = 0;
  /// A buffer whose contents are a broadcast's message (the same bytes on
  /// every member, named by the broadcast: uniformity/Broadcasts.cpp); its
  /// element I read by a constant index is the uniform value
  /// messageElementKey(MessageKey, I).
  uint64_t MessageKey = 0;
  /// On the root of a broadcast only (rank RootRank), this value is what
  /// the root sent as the message element named RootKey: every member got
  /// it (`ALL_INFO[8] = n_cases; MPI_Bcast(ALL_INFO, ...)` on rank 0). The
  /// other members name the same value by reading the element. 0: none.
  uint64_t RootKey = 0;
  int64_t RootRank = -1;
  /// An element entry of the state only (StateKey::element): the local
  /// variable whose value the element was last given (`B[8] = n_cases`).
  const clang::VarDecl *CopyOf = nullptr;
  /// The same for a field of the object a method runs on (`B[8] = n_`).
  const clang::FieldDecl *CopyOfField = nullptr;
  /// Implicit flow not decided yet: a known single value (or a tensor of a
  /// known shape) was assigned under a branch that may differ between
  /// ranks. It varies only if the paths that meet later leave different
  /// values (mergePaths); both arms assigning `4` leave it uniform.
  bool PendingVary = false;
  VaryOrigin PendingOrigin;
  uint64_t PendingParams = 0;
  bool ShapePending = false;
  /// Exactly the calling process's rank (read from a rank source on a
  /// communicator not known to be a sub-communicator), not just a value
  /// derived from it: branch conditions over it are decided per rank class
  /// (collectives/RankClasses.h). Lost by arithmetic and by joins with
  /// anything else.
  bool IsRank = false;

  static Taint varying(VaryKind K, clang::SourceLocation Loc,
                       llvm::StringRef What) {
    Taint T;
    T.Vary = true;
    T.Origin = VaryOrigin{K, Loc, internOriginText(What)};
    return T;
  }
  static Taint constant(int64_t V) {
    Taint T;
    T.Range = IntRange{{0, V}, {0, V}};
    return T;
  }

  bool depends() const { return Vary || Params; }
  /// The length or shape differs, not only the values.
  bool shapeVaries() const { return Vary && !ContentOnly; }
  /// The dimensions that may differ: none when the shape is uniform.
  uint8_t varyingDims() const { return shapeVaries() ? VaryingDims : 0; }
  /// The shape may differ in any way (a value chosen by a branch).
  void shapeDiffers() {
    ContentOnly = false;
    VaryingDims = AllDims;
  }
  /// One value on every rank that computes it (a constant, the world size).
  bool singleValue() const {
    return !Vary && !Params && Range && Range->Lo == Range->Hi;
  }
  /// One value on every rank, known by number or by name (a name may
  /// stand for an expression of the function's parameters).
  bool knownValue() const { return singleValue() || (!Vary && ValueKey); }
  /// Both are known values, and the same one.
  bool sameValue(const Taint &O) const {
    if (!knownValue() || !O.knownValue())
      return false;
    if (ValueKey && O.ValueKey)
      return ValueKey == O.ValueKey;
    // One number is one value, named or not.
    if (singleValue() && O.singleValue())
      return Range == O.Range;
    if (ValueKey || O.ValueKey)
      return ValueKey == O.ValueKey;
    return Range == O.Range;
  }

  /// The pointer itself, when only what it points to differs.
  /// A pointer to an object of this taint (`&x`, `new T(x)`,
  /// make_unique): never null, and only what it designates may differ.
  Taint addressOf() const {
    Taint T = *this;
    T.Range.reset();
    T.IsRank = false;
    T.NonNull = true;
    T.PointeeOnly = T.Vary;
    return T;
  }
  Taint pointerValue() const {
    Taint T = *this;
    if (T.Vary && T.PointeeOnly) {
      T.Vary = false;
      T.Origin = VaryOrigin();
      T.PointeeOnly = false;
    }
    return T;
  }

  /// What an argument gives a summary's value that depends on its
  /// parameter Index: the argument's own taint, whole where the parameter's
  /// values decide the value's shape.
  Taint argumentTaint(unsigned Index, Taint Arg) const {
    const uint64_t Bit = Index < 64 ? uint64_t(1) << Index : 0;
    if ((ShapeParams & Bit) && Arg.Vary) {
      Arg.shapeDiffers();
    } else if ((SizeParams & Bit) && Arg.Vary && !Arg.shapeVaries()) {
      // Only its shape reaches the value, and that agrees.
      Arg.Vary = false;
      Arg.Origin = VaryOrigin();
      Arg.ContentOnly = false;
      Arg.PointeeOnly = false;
      Arg.IsRank = false;
      Arg.Range.reset();
    } else if ((ElementParams & Bit) && Arg.Vary) {
      // Only the elements of a sequence hold it (`g[i] = start + i` in a
      // vector of a fixed length): the length is the summary's own.
      Arg.ContentOnly = true;
      Arg.IsRank = false;
      Arg.Range.reset();
    }
    return Arg;
  }

  /// The parameters that reach this value or O only through their shapes:
  /// a parameter counts where each of the two it reaches holds it so (a
  /// counter stepped in a loop over `x.size(0)` knows x by its shape).
  uint64_t sizeParamsOfBoth(const Taint &O) const {
    return (SizeParams | ~Params) & (O.SizeParams | ~O.Params) &
           (Params | O.Params);
  }

  /// Least upper bound: may-vary, must-be-uniform-content, range hull.
  void join(const Taint &O) {
    NonNull = NonNull && O.NonNull;
    IsRank = IsRank && O.IsRank;
    if (LauncherVar != O.LauncherVar)
      LauncherVar = LauncherVariable::None;
    // Of the values whose shape varies, every dimension that differs in
    // one of them.
    uint8_t Dims = uint8_t(varyingDims() | O.varyingDims());
    // Where only one differs in shape, its origin says why the shape does.
    if (Vary && O.Vary && !shapeVaries() && O.shapeVaries())
      Origin = O.Origin;
    // ContentOnly and PointeeOnly qualify the varying side; between two
    // values of the same variance both must hold.
    if (Vary == O.Vary) {
      ContentOnly = ContentOnly && O.ContentOnly;
      PointeeOnly = PointeeOnly && O.PointeeOnly;
    } else if (O.Vary) {
      ContentOnly = O.ContentOnly;
      PointeeOnly = O.PointeeOnly;
    }
    if (!Vary && O.Vary) {
      Vary = true;
      Origin = O.Origin;
    }
    ElementParams = (ElementParams | ~Params) & (O.ElementParams | ~O.Params) &
                    (Params | O.Params);
    SizeParams = sizeParamsOfBoth(O);
    Params |= O.Params;
    ShapeParams |= O.ShapeParams;
    UniformContent = UniformContent && O.UniformContent;
    if (ShapeKey != O.ShapeKey)
      ShapeKey = 0;
    ShapePending = ShapePending || O.ShapePending;
    if (ValueKey != O.ValueKey)
      ValueKey = 0;
    if (MessageKey != O.MessageKey)
      MessageKey = 0;
    if (RootKey != O.RootKey || RootRank != O.RootRank) {
      RootKey = 0;
      RootRank = -1;
    }
    if (CopyOf != O.CopyOf)
      CopyOf = nullptr;
    if (CopyOfField != O.CopyOfField)
      CopyOfField = nullptr;
    if (O.PendingVary && !PendingVary)
      PendingOrigin = O.PendingOrigin;
    PendingVary = PendingVary || O.PendingVary;
    PendingParams |= O.PendingParams;
    if (Range && O.Range)
      Range = hull(*Range, *O.Range);
    else
      Range.reset();
    VaryingDims = shapeVaries() ? Dims : AllDims;
  }
  /// A store that happens only where Ctl is taken, of a value every rank
  /// would hold alike: pending (decided where the paths meet, or by a
  /// collective that agrees on the field), whether or not it is a known one.
  void addPendingControl(const Taint &Ctl) {
    if (Ctl.Vary && !PendingVary) {
      PendingVary = true;
      PendingOrigin = Ctl.Origin;
    }
    PendingParams |= Ctl.Params;
  }
  /// Adds control dependence on a (possibly varying) branch: the value
  /// assigned under it differs when the branch does.
  void addControl(const Taint &Ctl) {
    if (!Ctl.depends())
      return;
    if (knownValue()) {
      // Decided where the paths meet (mergePaths); a known shape is
      // compared there too, should the values differ.
      if (Ctl.Vary && !PendingVary) {
        PendingVary = true;
        PendingOrigin = Ctl.Origin;
      }
      if (Ctl.Vary && ShapeKey)
        ShapePending = true;
      PendingParams |= Ctl.Params;
      return;
    }
    if (ShapeKey && Ctl.Vary) {
      // The values may differ; the shape is known and is compared where the
      // paths meet.
      if (!Vary) {
        Vary = true;
        Origin = Ctl.Origin;
        ContentOnly = true;
      }
      ShapePending = true;
      PointeeOnly = false;
      SizeParams = sizeParamsOfBoth(Ctl);
      Params |= Ctl.Params;
      ElementParams &= ~Ctl.Params;
      Range.reset();
      return;
    }
    if (Ctl.Vary) {
      shapeDiffers();
      PointeeOnly = false;
    }
    if (!Vary && Ctl.Vary) {
      Vary = true;
      Origin = Ctl.Origin;
    }
    SizeParams = sizeParamsOfBoth(Ctl);
    Params |= Ctl.Params;
    ElementParams &= ~Ctl.Params;
    if (Ctl.depends())
      Range.reset();
  }
  bool sameAs(const Taint &O) const {
    return Vary == O.Vary && Params == O.Params &&
           ElementParams == O.ElementParams && ShapeParams == O.ShapeParams &&
           SizeParams == O.SizeParams && ContentOnly == O.ContentOnly &&
           PointeeOnly == O.PointeeOnly && NonNull == O.NonNull &&
           LauncherVar == O.LauncherVar && UniformContent == O.UniformContent &&
           Range == O.Range && ShapeKey == O.ShapeKey &&
           ValueKey == O.ValueKey && MessageKey == O.MessageKey &&
           RootKey == O.RootKey && RootRank == O.RootRank &&
           CopyOf == O.CopyOf && CopyOfField == O.CopyOfField &&
           PendingVary == O.PendingVary && PendingParams == O.PendingParams &&
           ShapePending == O.ShapePending && IsRank == O.IsRank &&
           varyingDims() == O.varyingDims();
  }

  /// The pending implicit flow becomes real: the value differs where the
  /// branch does.
  void settle() {
    if (!PendingVary && !PendingParams)
      return;
    if (PendingVary) {
      // Of a known shape, the values differ; the shape is compared where
      // the paths meet (mergePaths).
      ContentOnly = ShapeKey && ShapePending && (!Vary || ContentOnly);
      if (!ContentOnly)
        VaryingDims = AllDims;
      PointeeOnly = false;
      if (!Vary) {
        Vary = true;
        Origin = PendingOrigin;
      }
    }
    Params |= PendingParams;
    ElementParams &= ~PendingParams;
    SizeParams &= ~PendingParams;
    Range.reset();
    ValueKey = 0;
    PendingVary = false;
    PendingParams = 0;
    PendingOrigin = VaryOrigin();
  }

  /// Join where control-flow paths meet. A value assigned under a branch
  /// that may differ between ranks varies only if the paths leave different
  /// values: the same single value on both stays pending (decidePending
  /// makes it uniform once no branch that may differ is still open), and
  /// tensors of the same known shape differ in their values only. Keeping
  /// it pending makes the merge of three paths independent of their order.
  void mergePaths(Taint O) {
    bool Pending =
        PendingVary || PendingParams || O.PendingVary || O.PendingParams;
    if (Pending && sameValue(O)) {
      join(O);
      // One value: one shape, whatever keys the paths named it by.
      if (!ShapeKey)
        ShapePending = false;
      return;
    }
    bool ShapeDiffers = (ShapePending || O.ShapePending) &&
                        (!ShapeKey || ShapeKey != O.ShapeKey);
    settle();
    O.settle();
    join(O);
    if (ShapeDiffers && Vary) {
      shapeDiffers();
      ShapePending = false;
    }
  }

  /// At a merge point under MergeControl: a pending single value that every
  /// path into it holds is that value on every rank, unless the branches
  /// that caused it are still open here (an inner join of one arm, whose
  /// control still depends on them): then the outer join decides.
  void decidePending(const Taint &MergeControl) {
    if (!knownValue())
      return;
    if (!MergeControl.Vary) {
      PendingVary = false;
      PendingOrigin = VaryOrigin();
      ShapePending = ShapePending && Vary;
    }
    PendingParams &= MergeControl.Params;
  }
};

} // namespace distlint
