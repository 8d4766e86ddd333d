//===- TuFacts.cpp - What the whole TU knows, grown in rounds -------------===//
#include "engine/lattice/TuFacts.h"

using namespace clang;

namespace distlint {

bool TuFacts::joinVary(llvm::DenseMap<const void *, Taint> &Map,
                       const void *Key, const Taint &T) {
  Taint Kept = T;
  Kept.Params = 0; // Which parameters reach it is the writer's business.
  Kept.ShapeParams = 0;
  auto [It, New] = Map.try_emplace(Key, Kept);
  if (New)
    return grew();
  // The first write names the origin; a later one can only widen what
  // varies (a push in a rank-dependent loop: the length too, not only the
  // values).
  Taint &Old = It->second;
  bool Widened = false;
  if (Old.ContentOnly && !Kept.ContentOnly) {
    Old.shapeDiffers();
    Widened = true;
  }
  if (Old.PointeeOnly && !Kept.PointeeOnly) {
    Old.PointeeOnly = false;
    Widened = true;
  }
  if (uint8_t More = Kept.varyingDims() & ~Old.varyingDims();
      More && Old.shapeVaries()) {
    Old.VaryingDims |= More;
    Widened = true;
  }
  return Widened && grew();
}

/// The first write decides alone; a later write that is not the rank makes
/// it false for good.
bool TuFacts::joinIsRank(llvm::DenseMap<const void *, bool> &Map,
                         const void *Key, bool IsRank) {
  auto [It, First] = Map.try_emplace(Key, IsRank);
  if (First || !It->second || IsRank)
    return false;
  It->second = false;
  return grew();
}

bool TuFacts::joinRange(const void *Key, const std::optional<IntRange> &Range) {
  auto [It, New] = FieldRange.try_emplace(Key, Range);
  if (New)
    return grew();
  if (!It->second)
    return false;
  Taint Old, Now;
  Old.Range = It->second;
  Now.Range = Range;
  Old.join(Now);
  if (Old.Range == It->second)
    return false;
  // Widened at once: a field that keeps changing (a counter) is unknown.
  It->second.reset();
  return grew();
}

bool TuFacts::noteGlobalWrite(const VarDecl *VD, const Taint &T) {
  bool Grew = joinIsRank(GlobalIsRank, VD, T.IsRank);
  if (T.Vary)
    Grew |= joinVary(GlobalVary, VD, T);
  return Grew;
}

bool TuFacts::noteGlobalInitializer(const VarDecl *VD, const Taint &T) {
  return T.Vary && joinVary(GlobalVary, VD, T);
}

bool TuFacts::noteFieldVaries(const FieldDecl *F, const Taint &T) {
  return noteFieldVaries(F, T, nullptr, 0, false);
}

bool TuFacts::noteFieldVaries(const FieldDecl *F, const Taint &T,
                              const FunctionDecl *Writer, unsigned Site,
                              bool AgreedByWriter) {
  if (!T.Vary)
    return false;
  bool Grew = joinVary(FieldVary, F, T);
  return noteSite(F, {Writer, Site}, AgreedByWriter) || Grew;
}

bool TuFacts::noteSite(const void *F, WriteSite Site, bool AgreedByWriter) {
  if (AgreedByWriter) {
    bool Moved = VaryingSites[F].erase(Site);
    return (WriterAgreedSites[F].insert(Site).second || Moved) && grew();
  }
  auto Some = WriterAgreedSites.find(F);
  if (Some != WriterAgreedSites.end() && Some->second.count(Site))
    return false; // Agreed by its writer, for good.
  return VaryingSites[F].insert(Site).second && grew();
}

bool TuFacts::noteFieldPendingVary(const FieldDecl *F, const Taint &T) {
  return T.Vary && joinVary(FieldPendingVary, F, T);
}

bool TuFacts::noteFieldAgreed(const FieldDecl *F,
                              const clang::FunctionDecl *Agreer) {
  return FieldAgreers[F].insert(Agreer).second && grew();
}

bool TuFacts::pendingAgreed(const void *F) const {
  auto Agreers = FieldAgreers.find(F);
  if (Agreers == FieldAgreers.end() || Agreers->second.empty())
    return false;
  auto Writers = FieldVaryWriters.find(F);
  if (Writers == FieldVaryWriters.end())
    return true;
  // A function that agrees F without writing it on some ranks (a sync()
  // method, a caller that broadcasts after the writer returns) serves
  // every writer; a writer that agrees serves its own write only.
  for (const void *A : Agreers->second)
    if (!Writers->second.count(A))
      return true;
  for (const void *W : Writers->second)
    if (!Agreers->second.count(W))
      return false;
  return true;
}

bool TuFacts::noteFieldVaryWriter(const FieldDecl *F,
                                  const clang::FunctionDecl *Writer) {
  return FieldVaryWriters[F].insert(Writer).second && grew();
}

bool TuFacts::noteWriterAgreement(const FieldDecl *F, bool Agreed) {
  auto [It, First] = WriterAgreed.try_emplace(F, Agreed);
  if (First)
    return grew();
  if (!It->second || Agreed)
    return false;
  It->second = false;
  return grew();
}

bool TuFacts::noteFieldValue(const FieldDecl *F, const Taint &T) {
  bool Grew = joinIsRank(FieldIsRank, F, T.IsRank);
  return joinRange(F, T.Range) || Grew;
}

bool TuFacts::noteSubCommunicator(const VarDecl *VD) {
  return SubComms.insert(VD).second && grew();
}

bool TuFacts::noteFieldCommunicator(const FieldDecl *F, bool Sub) {
  auto [It, First] = SubCommFields.try_emplace(F, Sub);
  if (First)
    return grew();
  if (!It->second || Sub)
    return false;
  It->second = false;
  return grew();
}

bool TuFacts::join(const TuFacts &O) {
  bool Grew = false;
  for (const auto &[Key, T] : O.GlobalVary)
    Grew |= joinVary(GlobalVary, Key, T);
  for (const auto &[Key, T] : O.FieldVary)
    Grew |= joinVary(FieldVary, Key, T);
  for (const auto &[Key, T] : O.FieldPendingVary)
    Grew |= joinVary(FieldPendingVary, Key, T);
  for (const auto &[Key, Sites] : O.WriterAgreedSites)
    for (WriteSite Site : Sites)
      Grew |= noteSite(Key, Site, true);
  for (const auto &[Key, Sites] : O.VaryingSites)
    for (WriteSite Site : Sites)
      Grew |= noteSite(Key, Site, false);
  for (const auto &[Key, Agreers] : O.FieldAgreers)
    for (const void *A : Agreers)
      Grew |= FieldAgreers[Key].insert(A).second && grew();
  for (const auto &[Key, Writers] : O.FieldVaryWriters)
    for (const void *W : Writers)
      Grew |= FieldVaryWriters[Key].insert(W).second && grew();
  for (const auto &[Key, Agreed] : O.WriterAgreed)
    Grew |= noteWriterAgreement(static_cast<const FieldDecl *>(Key), Agreed);
  for (const auto &[Key, IsRank] : O.GlobalIsRank)
    Grew |= joinIsRank(GlobalIsRank, Key, IsRank);
  for (const auto &[Key, IsRank] : O.FieldIsRank)
    Grew |= joinIsRank(FieldIsRank, Key, IsRank);
  for (const auto &[Key, Range] : O.FieldRange) {
    if (!Range) { // Unknown absorbs.
      auto [It, New] = FieldRange.try_emplace(Key, std::nullopt);
      if (New || It->second) {
        It->second.reset();
        Grew |= grew();
      }
      continue;
    }
    Grew |= joinRange(Key, Range);
  }
  for (const VarDecl *VD : O.SubComms)
    Grew |= noteSubCommunicator(VD);
  for (const auto &[Key, Sub] : O.SubCommFields)
    Grew |= noteFieldCommunicator(static_cast<const FieldDecl *>(Key), Sub);
  return Grew;
}

const Taint *TuFacts::globalVary(const VarDecl *VD) const {
  auto It = GlobalVary.find(VD);
  return It == GlobalVary.end() ? nullptr : &It->second;
}

bool TuFacts::globalIsRank(const VarDecl *VD) const {
  auto It = GlobalIsRank.find(VD);
  return It != GlobalIsRank.end() && It->second;
}

const Taint *TuFacts::fieldVary(const FieldDecl *F,
                                const clang::FunctionDecl *Reader) const {
  if (Reader)
    if (auto Agreed = WriterAgreed.find(F);
        Agreed != WriterAgreed.end() && Agreed->second) {
      auto Writers = FieldVaryWriters.find(F);
      if (Writers == FieldVaryWriters.end() || !Writers->second.count(Reader))
        return nullptr;
    }
  if (auto It = FieldVary.find(F); It != FieldVary.end()) {
    // Every site's writer agrees what it wrote before it can be read.
    auto Varying = VaryingSites.find(F);
    if (Varying != VaryingSites.end() && !Varying->second.empty())
      return &It->second;
    return nullptr;
  }
  auto It = FieldPendingVary.find(F);
  return It == FieldPendingVary.end() || pendingAgreed(F) ? nullptr
                                                          : &It->second;
}

bool TuFacts::wholeAgreed(const FieldDecl *F,
                          const clang::FunctionDecl *Reader) const {
  auto Agreed = WriterAgreed.find(F);
  if (!Reader || Agreed == WriterAgreed.end() || !Agreed->second)
    return false;
  auto Writers = FieldVaryWriters.find(F);
  return Writers != FieldVaryWriters.end() && !Writers->second.empty() &&
         !Writers->second.count(Reader);
}

std::optional<IntRange> TuFacts::fieldRange(const FieldDecl *F) const {
  auto It = FieldRange.find(F);
  return It == FieldRange.end() ? std::nullopt : It->second;
}

bool TuFacts::fieldIsRank(const FieldDecl *F) const {
  auto It = FieldIsRank.find(F);
  return It != FieldIsRank.end() && It->second;
}

bool TuFacts::isSubCommunicatorField(const FieldDecl *F) const {
  auto It = SubCommFields.find(F);
  return It != SubCommFields.end() && It->second;
}

bool TuFacts::operator==(const TuFacts &O) const {
  // Which values vary and how far (contents only, or the shape too); the
  // origin is the first write's, kept for the notes.
  auto SameKeys = [](const auto &A, const auto &B) {
    if (A.size() != B.size())
      return false;
    for (const auto &KV : A) {
      auto It = B.find(KV.first);
      if (It == B.end() || It->second.ContentOnly != KV.second.ContentOnly ||
          It->second.PointeeOnly != KV.second.PointeeOnly)
        return false;
    }
    return true;
  };
  if (!SameKeys(GlobalVary, O.GlobalVary) ||
      !SameKeys(FieldVary, O.FieldVary) ||
      !SameKeys(FieldPendingVary, O.FieldPendingVary))
    return false;
  auto SameSites = [](const auto &A, const auto &B) {
    auto Size = [](const auto &M) {
      size_t N = 0;
      for (const auto &KV : M)
        N += KV.second.size();
      return N;
    };
    if (Size(A) != Size(B))
      return false;
    for (const auto &KV : A)
      for (const auto &Site : KV.second) {
        auto It = B.find(KV.first);
        if (It == B.end() || !It->second.count(Site))
          return false;
      }
    return true;
  };
  if (!SameSites(VaryingSites, O.VaryingSites) ||
      !SameSites(WriterAgreedSites, O.WriterAgreedSites))
    return false;
  auto SameValues = [](const auto &A, const auto &B) {
    if (A.size() != B.size())
      return false;
    for (const auto &KV : A) {
      auto It = B.find(KV.first);
      if (It == B.end() || !(It->second == KV.second))
        return false;
    }
    return true;
  };
  auto SameSets = [](const auto &A, const auto &B) {
    if (A.size() != B.size())
      return false;
    for (const auto &[Key, Set] : A) {
      auto It = B.find(Key);
      if (It == B.end() || It->second.size() != Set.size())
        return false;
      for (const void *X : Set)
        if (!It->second.count(X))
          return false;
    }
    return true;
  };
  if (!SameSets(FieldVaryWriters, O.FieldVaryWriters) ||
      !SameSets(FieldAgreers, O.FieldAgreers))
    return false;
  if (!SameValues(GlobalIsRank, O.GlobalIsRank) ||
      !SameValues(WriterAgreed, O.WriterAgreed) ||
      !SameValues(FieldIsRank, O.FieldIsRank) ||
      !SameValues(FieldRange, O.FieldRange) ||
      !SameValues(SubCommFields, O.SubCommFields) ||
      SubComms.size() != O.SubComms.size())
    return false;
  for (const clang::VarDecl *VD : SubComms)
    if (!O.SubComms.count(VD))
      return false;
  return true;
}

} // namespace distlint
