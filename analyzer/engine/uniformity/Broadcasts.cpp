//===- Broadcasts.cpp - Values named by the broadcast that carried them ---===//
//
// After a broadcast every member holds the root's bytes. When the ranks of
// a rank branch each reach the same broadcast through their own arm (rank 0
// packs its options into a buffer and sends it, the others receive into
// their own and unpack), the values on the two sides are the same although
// nothing on either side is uniform by itself. Naming them lets the rank-
// class comparison (collectives/RankClasses) see that `n_cases > 0` on rank
// 0 and `n_cases > 0` on the others, after `n_cases = TMP[8]`, are one
// condition:
//   - a message is named by the broadcast's signature (operation,
//     communicator, root, datatype, count), when no path through the
//     function issues two broadcasts of that signature;
//   - a member that reads element I of the buffer by a constant index gets
//     the value messageElementKey(message, I), on every rank;
//   - on the root, a variable copied into element I before the broadcast
//     (and not written since) is that value too (Taint::RootKey).
//
//===----------------------------------------------------------------------===//
#include "engine/Values.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"

using namespace clang;

namespace distlint {

namespace {

/// What a signature knows of one argument: a constant, a named entity (a
/// global such as MPI_COMM_WORLD or MPI_INT, an enumerator), or anything.
uint64_t argumentPart(Engine &E, const Expr *X) {
  if (!X)
    return 0;
  if (auto V = evaluateInt(E, X))
    return llvm::hash_combine(1, V->getExtValue());
  const Expr *S = X->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->getOpcode() == UO_AddrOf)
    S = U->getSubExpr()->IgnoreParenCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *D = DR->getDecl();
    const auto *V = dyn_cast<VarDecl>(D);
    if (isa<EnumConstantDecl>(D) || (V && !V->hasLocalStorage()))
      return llvm::hash_combine(2, D->getCanonicalDecl());
  }
  return 3; // Unknown: matches any argument of another broadcast.
}

const Expr *argAt(const CallExpr *Call, int I) {
  return I >= 0 && I < (int)Call->getNumArgs() ? Call->getArg(I) : nullptr;
}

} // namespace

uint64_t UniformityAnalysis::broadcastKey(const CallExpr *Call) {
  auto Known = BroadcastKeys.find(Call);
  if (Known != BroadcastKeys.end())
    return Known->second;
  uint64_t &Key = BroadcastKeys[Call];
  auto Signature = [&](const CallExpr *C) -> uint64_t {
    const FunctionDecl *Callee = E.resolveCallee(C);
    const api::ApiEntry *Row =
        Callee ? E.api().find(Callee, api::Role::Collective) : nullptr;
    if (!Row || !api::isBroadcast(*Row))
      return 0;
    const api::ArgRoles &A = Row->Args;
    return llvm::hash_combine(llvm::StringRef(Row->Name),
                              argumentPart(E, argAt(C, A.Comm)),
                              argumentPart(E, argAt(C, A.Root)),
                              argumentPart(E, argAt(C, A.DType)),
                              argumentPart(E, argAt(C, A.Count))) |
           1;
  };
  uint64_t Own = Signature(Call);
  const FunctionFacts &Facts = *R.Body->Facts;
  const CFGBlock *Home = Facts.blockOf(Call);
  if (!Own || !Home)
    return Key = 0;
  // Blocks reachable from a block's successors (a block in a cycle reaches
  // itself).
  auto Reaches = [](const CFGBlock *From, const CFGBlock *To) {
    llvm::SmallVector<const CFGBlock *, 16> Work;
    llvm::DenseSet<const CFGBlock *> Seen;
    for (const CFGBlock *S : From->succs())
      if (S && Seen.insert(S).second)
        Work.push_back(S);
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (B == To)
        return true;
      for (const CFGBlock *S : B->succs())
        if (S && Seen.insert(S).second)
          Work.push_back(S);
    }
    return false;
  };
  if (Reaches(Home, Home))
    return Key = 0; // In a loop: one message per iteration.
  for (const CFGBlock *B : Facts.reversePostOrder())
    for (const CFGElement &El : *B) {
      auto CS = El.getAs<CFGStmt>();
      const auto *Other = CS ? dyn_cast<CallExpr>(CS->getStmt()) : nullptr;
      if (!Other || Other == Call || Signature(Other) != Own)
        continue;
      if (B == Home || Reaches(Home, B) || Reaches(B, Home))
        return Key = 0; // Two of them on one path: which is which?
    }
  return Key = llvm::hash_combine(Own, FD->getCanonicalDecl()) | 1;
}

void UniformityAnalysis::receiveBroadcast(const CallExpr *Call,
                                          const api::ApiEntry &Row,
                                          VarState &S) {
  uint64_t Key = broadcastKey(Call);
  const Expr *Recv = argAt(Call, Row.Args.Recv);
  const VarDecl *Buffer = Recv ? baseVar(Recv) : nullptr;
  if (!Key || !Buffer || !isLocal(Buffer))
    return;
  // The storage of one field (`km.centroids.data()`): markUniform agreed on
  // that field; the object's other fields are not the message.
  if (isa<MemberExpr>(storageOwner(Recv)))
    return;
  const Expr *Stripped = Recv->IgnoreParenCasts();
  bool Scalar =
      Buffer->getType()->isScalarType() && !Buffer->getType()->isPointerType();
  if (const auto *U = dyn_cast<UnaryOperator>(Stripped);
      U && U->getOpcode() == UO_AddrOf &&
      isa<DeclRefExpr>(U->getSubExpr()->IgnoreParenCasts()))
    Scalar = true; // `MPI_Bcast(&n, 1, ...)`: the message is n.
  auto Root = evaluateInt(E, argAt(Call, Row.Args.Root));
  // On the root, what was copied into the buffer's elements is what every
  // member now reads there.
  llvm::SmallVector<std::pair<const VarDecl *, int64_t>, 8> Sent;
  for (auto It = S.lower_bound(StateKey(Buffer));
       It != S.end() && It->first.Var == Buffer; ++It)
    if (It->first.Index >= 0 && It->second.CopyOf)
      Sent.push_back({It->second.CopyOf, It->first.Index});
  forgetFieldsOf(S, Buffer);
  if (const auto *U = dyn_cast<UnaryOperator>(Stripped);
      U && U->getOpcode() == UO_AddrOf &&
      isa<DeclRefExpr>(U->getSubExpr()->IgnoreParenCasts()))
    markFieldsAgreed(Buffer, S); // A whole struct received: every field.
  Taint &B = S[Buffer];
  if (Scalar) {
    if (!B.Vary && !B.Params)
      B.ValueKey = messageElementKey(Key, 0);
    return;
  }
  B.MessageKey = Key;
  if (!Root)
    return;
  for (const auto &[Var, Index] : Sent) {
    auto It = S.find(Var);
    if (It == S.end())
      continue;
    It->second.RootKey = messageElementKey(Key, Index);
    It->second.RootRank = Root->getExtValue();
  }
}

/// The local buffer an element write `B[i] = ...` writes into.
static const VarDecl *elementBuffer(const Expr *LHS,
                                    const ArraySubscriptExpr *&AS) {
  AS = dyn_cast<ArraySubscriptExpr>(strip(LHS));
  const auto *DR =
      AS ? dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts())
         : nullptr;
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

UniformityAnalysis::ElementEntries
UniformityAnalysis::elementEntries(const Expr *LHS, const VarState &S) {
  ElementEntries Out;
  const ArraySubscriptExpr *AS;
  const VarDecl *Buffer = CopiesIntoElements ? elementBuffer(LHS, AS) : nullptr;
  if (!Buffer)
    return Out;
  for (auto It = S.lower_bound(StateKey(Buffer));
       It != S.end() && It->first.Var == Buffer; ++It)
    if (It->first.Index >= 0)
      Out.push_back(*It);
  return Out;
}

void UniformityAnalysis::noteElementCopy(const BinaryOperator *Assign,
                                         VarState &S,
                                         const ElementEntries &Kept) {
  const ArraySubscriptExpr *AS;
  const VarDecl *Buffer = elementBuffer(Assign->getLHS(), AS);
  if (!Buffer || !isLocal(Buffer))
    return;
  auto Index = evaluateInt(E, AS->getIdx());
  if (!Index || Index->isNegative())
    return;
  // The write changed one element: the others keep what they held.
  for (const auto &[Key, T] : Kept)
    if (Key.Index != Index->getExtValue())
      S.insert({Key, T});
  const auto *Src = dyn_cast<DeclRefExpr>(Assign->getRHS()->IgnoreParenCasts());
  const auto *Var = Src ? dyn_cast<VarDecl>(Src->getDecl()) : nullptr;
  if (!Var || !isLocal(Var) || Var == Buffer)
    return;
  Taint Copy;
  Copy.CopyOf = Var;
  S[StateKey::element(Buffer, Index->getExtValue())] = Copy;
  CopiesIntoElements = true;
}

void UniformityAnalysis::forgetCopiesOf(const VarDecl *VD, VarState &S) {
  if (!CopiesIntoElements)
    return;
  for (auto It = S.begin(); It != S.end();)
    It = It->first.Index >= 0 && It->second.CopyOf == VD ? S.erase(It)
                                                         : std::next(It);
}

} // namespace distlint
