//===- TuFacts.h - What the whole TU knows, grown in rounds -----*- C++ -*-===//
//
// Facts the uniformity data-flow learns from every function of a TU and reads
// back in every other: which globals and fields are written rank-varying
// values, the range of values each field is written, which of them are only
// ever written the rank itself, and which variables and fields hold
// sub-communicators.
//
// Each fact is a lattice of finite height that only grows: absent < present
// for a varying global or field, a field written one value on some ranks
// only, a field a collective writes, and a sub-communicator; a field's range
// goes from absent to the first write's range to unknown (widened at its first
// change: a field that keeps changing is a counter); "only the rank" falls
// once from true to false, and so does "every communicator written into
// this field is a sub-communicator". Every note*() is a join with one write and
// says whether it changed anything; a change moves stamp(), which the TU
// rounds, the per-function fixpoint cache and the body cache compare to know
// whether what they computed still holds.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/lattice/Taint.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace clang {
class FieldDecl;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace distlint {

class TuFacts {
public:
  /// A write of T into the global (or static) VD.
  bool noteGlobalWrite(const clang::VarDecl *VD, const Taint &T);
  /// A global whose initializer is rank-varying (`static int r =
  /// get_rank();`): varying before any write is seen.
  bool noteGlobalInitializer(const clang::VarDecl *VD, const Taint &T);
  /// A write of the varying T into field F, on every rank that runs it.
  bool noteFieldVaries(const clang::FieldDecl *F, const Taint &T);
  /// The same, at a site of Writer's (a block of its CFG). AgreedByWriter:
  /// made on some ranks only (`if (rank == 0) d->cut = 3 * avg;`) and
  /// agreed by a collective of Writer's on every path before anything else
  /// can read it (`MPI_Bcast(&d->cut, ...)`): it leaves the field agreed. A
  /// site learns that in a later round (once its branch is known to differ)
  /// and never goes back.
  bool noteFieldVaries(const clang::FieldDecl *F, const Taint &T,
                       const clang::FunctionDecl *Writer, unsigned Site,
                       bool AgreedByWriter);
  /// A write of one named value under a branch that differs between ranks
  /// (`if (rank == 0) cfg.every = 5;`, T settled): the field differs
  /// between ranks unless the program agrees on it with a collective.
  bool noteFieldPendingVary(const clang::FieldDecl *F, const Taint &T);
  /// A collective in Agreer writes field F (`MPI_Bcast(&cfg.every, ...)`,
  /// or its whole object): what one rank alone wrote there is agreed before
  /// reads. An agreer that writes F on some ranks itself (a parse on the root
  /// and its broadcast) agrees its own write: another writer's needs an
  /// agreement of its own or one by a function that does not write F.
  bool noteFieldAgreed(const clang::FieldDecl *F,
                       const clang::FunctionDecl *Agreer = nullptr);
  /// Writer wrote a value into F that differs between ranks (varying, or
  /// named but written on some ranks only).
  bool noteFieldVaryWriter(const clang::FieldDecl *F,
                           const clang::FunctionDecl *Writer);
  /// One of F's varying writers, a method (a constructor included) of F's
  /// class, leaves F agreed wherever the object can be seen from outside it
  /// (Agreed), or a writer does not (then never again: it falls once).
  bool noteWriterAgreement(const clang::FieldDecl *F, bool Agreed);
  /// A write of T, which no parameter reaches (the callers record what
  /// their arguments give it), into field F: its range and rank-ness.
  bool noteFieldValue(const clang::FieldDecl *F, const Taint &T);
  /// VD holds a sub-communicator (the result of a split, or a copy of one).
  bool noteSubCommunicator(const clang::VarDecl *VD);
  /// A communicator written into field F: a sub-communicator (Sub) or
  /// another one (the world, a parameter, a duplicate of the world).
  bool noteFieldCommunicator(const clang::FieldDecl *F, bool Sub);
  /// Joins every fact of Other into these.
  bool join(const TuFacts &Other);

  /// Moves whenever a fact grows.
  unsigned stamp() const { return Stamp; }

  /// Why a global varies, when a varying write (or initializer) was seen.
  const Taint *globalVary(const clang::VarDecl *VD) const;
  /// Is every write of the global seen the rank itself?
  bool globalIsRank(const clang::VarDecl *VD) const;
  /// Why a field varies, when a varying write was seen that its writer
  /// does not agree (or a named value written on some ranks only, into a
  /// field no collective agrees). Read
  /// in Reader (not one of its writers): nothing, when every varying
  /// writer is a method of its class that agrees the field wherever the
  /// object can be seen (the root reads a file, then every rank stores what
  /// it broadcast).
  const Taint *fieldVary(const clang::FieldDecl *F,
                         const clang::FunctionDecl *Reader = nullptr) const;
  /// Does F differ only because a value every rank would hold alike was
  /// written on some ranks (noteFieldPendingVary), no write being varying?
  bool fieldVariesByBranchOnly(const clang::FieldDecl *F) const {
    return !FieldVary.count(F) && FieldPendingVary.count(F);
  }
  /// Is member object F (`settings_`) agreed whole for Reader: it has
  /// rank-dependent writers (of it, of its fields or through its methods),
  /// each a method of F's class that agrees it wherever the object can be
  /// seen, and Reader is none of them? Then every field read through it is.
  bool wholeAgreed(const clang::FieldDecl *F,
                   const clang::FunctionDecl *Reader) const;
  /// The range of every value written into F; nullopt when unknown or when
  /// no write was seen.
  std::optional<IntRange> fieldRange(const clang::FieldDecl *F) const;
  /// Is every write of the field seen the rank itself?
  bool fieldIsRank(const clang::FieldDecl *F) const;
  bool isSubCommunicator(const clang::VarDecl *VD) const {
    return SubComms.count(VD);
  }
  /// Is every communicator written into F (at least one) a sub-communicator?
  bool isSubCommunicatorField(const clang::FieldDecl *F) const;

  /// Equal facts (for the lattice-law tests).
  bool operator==(const TuFacts &O) const;

private:
  bool grew() {
    ++Stamp;
    return true;
  }
  bool joinVary(llvm::DenseMap<const void *, Taint> &Map, const void *Key,
                const Taint &T);
  bool joinIsRank(llvm::DenseMap<const void *, bool> &Map, const void *Key,
                  bool IsRank);
  bool joinRange(const void *Key, const std::optional<IntRange> &Range);
  /// Does an agreement cover every write of F on some ranks (see
  /// noteFieldAgreed)?
  bool pendingAgreed(const void *F) const;

  llvm::DenseMap<const void *, Taint> GlobalVary, FieldVary, FieldPendingVary;
  /// The sites of F's varying writes (FieldVary): those their writer
  /// agrees, and the others; a site is in one set at most.
  using WriteSite = std::pair<const void *, unsigned>;
  llvm::DenseMap<const void *, llvm::DenseSet<WriteSite>> VaryingSites,
      WriterAgreedSites;
  bool noteSite(const void *F, WriteSite Site, bool AgreedByWriter);
  /// The functions whose collectives agree each field.
  llvm::DenseMap<const void *, llvm::SmallPtrSet<const void *, 2>> FieldAgreers;
  llvm::DenseMap<const void *, llvm::SmallPtrSet<const void *, 2>>
      FieldVaryWriters;
  /// Absent: no varying writer ended; false once one does not agree.
  llvm::DenseMap<const void *, bool> WriterAgreed;
  llvm::DenseMap<const void *, bool> GlobalIsRank, FieldIsRank;
  /// Absent: no write seen; nullopt: unknown.
  llvm::DenseMap<const void *, std::optional<IntRange>> FieldRange;
  llvm::SmallPtrSet<const clang::VarDecl *, 8> SubComms;
  /// Absent: no communicator written; false once a write is not a
  /// sub-communicator.
  llvm::DenseMap<const void *, bool> SubCommFields;
  unsigned Stamp = 0;
};

} // namespace distlint
