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
//     communicator, root, datatype, count) and its ordinal among the
//     broadcasts of that signature on every path to it (broadcasts match in
//     the order they are issued);
//   - a member that reads element I of the buffer by a constant index gets
//     the value messageElementKey(message, I), on every rank;
//   - on the root, a variable copied into element I before the broadcast
//     (and not written since) is that value too (Taint::RootKey).
//
//===----------------------------------------------------------------------===//
#include "engine/Values.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/Expr.h"
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

/// The field of the object a method runs on that X reads (`n_`,
/// `this->n_`), or null.
const FieldDecl *objectField(const Expr *X) {
  const auto *M = dyn_cast<MemberExpr>(X->IgnoreParenCasts());
  if (!M || !isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(M->getMemberDecl());
}

const Expr *argAt(const CallExpr *Call, int I) {
  return I >= 0 && I < (int)Call->getNumArgs() ? Call->getArg(I) : nullptr;
}

} // namespace

uint64_t UniformityAnalysis::broadcastSignature(const CallExpr *Call) {
  auto [It, New] = BroadcastSignatures.try_emplace(Call, 0);
  if (!New)
    return It->second;
  const FunctionDecl *Callee = E.resolveCallee(Call);
  const api::ApiEntry *Row =
      Callee ? E.api().find(Callee, api::Role::Collective) : nullptr;
  if (!Row || !api::isBroadcast(*Row))
    return 0;
  const api::ArgRoles &A = Row->Args;
  return BroadcastSignatures[Call] =
             llvm::hash_combine(llvm::StringRef(Row->Name),
                                argumentPart(E, argAt(Call, A.Comm)),
                                argumentPart(E, argAt(Call, A.Root)),
                                argumentPart(E, argAt(Call, A.DType)),
                                argumentPart(E, argAt(Call, A.Count))) |
             1;
}

uint64_t UniformityAnalysis::broadcastKey(const CallExpr *Call) {
  if (auto Known = BroadcastKeys.find(Call); Known != BroadcastKeys.end())
    return Known->second;
  uint64_t Own = broadcastSignature(Call);
  const FunctionFacts &Facts = *R.Body->Facts;
  if (!Own || !Facts.blockOf(Call))
    return BroadcastKeys[Call] = 0;
  // Broadcasts on one communicator match in the order they are issued: the
  // k-th of a signature on rank 0's path carries what the k-th on the
  // others' path receives. Name each by its ordinal where every path to it
  // issues the same number of that signature before it (a forward data-flow
  // over ordinals: unset, a count, or `Conflict` where paths disagree; one
  // in a loop meets its own next iteration).
  constexpr int Conflict = -1;
  llvm::DenseMap<const CFGBlock *, llvm::SmallVector<const CallExpr *, 2>>
      Issued;
  for (const CFGBlock *B : Facts.reversePostOrder())
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *C = dyn_cast<CallExpr>(CS->getStmt());
            C && broadcastSignature(C) == Own)
          Issued[B].push_back(C);
  llvm::DenseMap<const CFGBlock *, int> In;
  auto Out = [&](const CFGBlock *B) -> std::optional<int> {
    auto It = In.find(B);
    if (It == In.end())
      return std::nullopt;
    if (It->second == Conflict)
      return Conflict;
    auto Calls = Issued.find(B);
    return It->second + (Calls == Issued.end() ? 0 : (int)Calls->second.size());
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : Facts.reversePostOrder()) {
      std::optional<int> Met;
      if (B->pred_empty())
        Met = 0;
      for (const CFGBlock *P : B->preds())
        if (std::optional<int> O = P ? Out(P) : std::nullopt)
          Met = !Met || *Met == *O ? *O : Conflict;
      if (!Met)
        continue;
      auto [It, New] = In.try_emplace(B, *Met);
      if (!New && It->second != *Met && It->second != Conflict) {
        It->second = Conflict;
        Changed = true;
      } else if (New) {
        Changed = true;
      }
    }
  }
  for (const auto &[B, Calls] : Issued) {
    auto It = In.find(B);
    for (unsigned I = 0; I < Calls.size(); ++I)
      BroadcastKeys[Calls[I]] =
          It == In.end() || It->second == Conflict
              ? 0
              : llvm::hash_combine(Own, It->second + I,
                                   FD->getCanonicalDecl()) |
                    1;
  }
  auto Named = BroadcastKeys.find(Call);
  return Named == BroadcastKeys.end() ? 0 : Named->second;
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
  // On the root, what was copied into the buffer's elements is what every
  // member now reads there.
  auto Root = evaluateInt(E, argAt(Call, Row.Args.Root));
  llvm::SmallVector<std::pair<const VarDecl *, int64_t>, 8> Sent;
  llvm::SmallVector<std::pair<const FieldDecl *, int64_t>, 8> SentFields;
  for (auto It = S.lower_bound(StateKey(Buffer));
       It != S.end() && It->first.Var == Buffer; ++It)
    if (It->first.Index >= 0 && It->second.RootRank >= 0 &&
        (!Root || It->second.RootRank != Root->getExtValue()))
      continue; // Copied on another rank's path only.
    else if (It->first.Index >= 0 && It->second.CopyOf)
      Sent.push_back({It->second.CopyOf, It->first.Index});
    else if (It->first.Index >= 0 && It->second.CopyOfField)
      SentFields.push_back({It->second.CopyOfField, It->first.Index});
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
  // Where the root alone runs this broadcast, a field of the object it
  // packed holds the message's element, as every member reads it: once
  // the other ranks store what they read into the same field, the object
  // agrees (`if (rank == 0) { all = {n_, m_}; Bcast(all) } else { Bcast(all);
  // n_ = all[0]; m_ = all[1]; }`).
  if (!SentFields.empty() && onlyRankRuns(Call, Root->getExtValue(), S))
    for (const auto &[F, Index] : SentFields) {
      Taint Sent;
      Sent.UniformContent = true;
      Sent.ValueKey = messageElementKey(Key, Index);
      S[StateKey::thisField(F)] = Sent;
    }
  for (const auto &[Var, Index] : Sent) {
    auto It = S.find(Var);
    if (It == S.end())
      continue;
    It->second.RootKey = messageElementKey(Key, Index);
    It->second.RootRank = Root->getExtValue();
  }
}

uint64_t UniformityAnalysis::messageElementName(const Taint &Buffer,
                                                const Expr *Index,
                                                const VarState &S) {
  if (!Buffer.MessageKey || !Index)
    return 0;
  std::optional<int64_t> I;
  if (auto V = evaluateInt(E, Index))
    I = V->getExtValue();
  // A counter stepped through the message (`n = sizes[i++]`).
  else if (Taint T = eval(Index, S); T.singleValue() && T.Range->Lo.W == 0)
    I = T.Range->Lo.C;
  return I && *I >= 0 ? messageElementKey(Buffer.MessageKey, *I) : 0;
}

std::optional<UniformityAnalysis::RankTest>
UniformityAnalysis::rankTest(const Expr *Cond, const VarState &S) {
  Cond = Cond->IgnoreParenImpCasts();
  bool Negated = false;
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot) {
    Cond = U->getSubExpr()->IgnoreParenImpCasts();
    Negated = true;
  }
  std::optional<int64_t> Tested;
  bool Equal = false;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
    for (auto [Side, Other] : {std::pair(BO->getLHS(), BO->getRHS()),
                               std::pair(BO->getRHS(), BO->getLHS())})
      if (eval(Side, S).IsRank)
        if (Taint V = eval(Other, S); V.singleValue() && !V.Range->Lo.W)
          Tested = V.Range->Lo.C;
    Equal = BO->getOpcode() == BO_EQ;
  } else if (eval(Cond, S).IsRank) {
    Tested = 0; // `if (rank)`: true where rank != 0.
  }
  if (!Tested)
    return std::nullopt;
  return RankTest{*Tested, Equal != Negated};
}

bool UniformityAnalysis::onlyRankRuns(const Stmt *S, int64_t Rank,
                                      const VarState &Here) {
  const ParentMap &Parents = R.Body->Facts->parents();
  for (const Stmt *Child = S, *Up = Parents.getParent(S); Up;
       Child = Up, Up = Parents.getParent(Up)) {
    const auto *If = dyn_cast<IfStmt>(Up);
    if (!If || Child == If->getCond() || Child == If->getInit() ||
        Child == If->getConditionVariableDeclStmt())
      continue;
    if (auto Test = rankTest(If->getCond(), Here);
        Test && Test->Rank == Rank &&
        Test->TrueForRank == (Child == If->getThen()))
      return true;
  }
  return false;
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
  noteCopyInto(Buffer, Index->getExtValue(), Assign->getRHS(), S);
}

void UniformityAnalysis::noteCopyInto(const VarDecl *Buffer, int64_t Index,
                                      const Expr *Value, VarState &S) {
  Taint Copy;
  const auto *Src = dyn_cast<DeclRefExpr>(Value->IgnoreParenCasts());
  const auto *Var = Src ? dyn_cast<VarDecl>(Src->getDecl()) : nullptr;
  if (Var && isLocal(Var) && Var != Buffer)
    Copy.CopyOf = Var;
  else if (const FieldDecl *F = objectField(Value))
    Copy.CopyOfField = F;
  else
    return;
  if (auto Root = rootOnlyRank(S))
    Copy.RootRank = *Root; // Only that rank takes this path.
  S[StateKey::element(Buffer, Index)] = Copy;
  CopiesIntoElements = true;
}

/// The braced list a local buffer is built from (`int info[] = {n, m}`,
/// `std::vector<unsigned> sizes = {n, m}` or `sizes{n, m}`), or null.
static const InitListExpr *bracedElements(const Expr *Init) {
  const Expr *X = Init ? Init->IgnoreImplicit() : nullptr;
  if (const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(X);
      Ctor && Ctor->getNumArgs() >= 1)
    if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(
            Ctor->getArg(0)->IgnoreImplicit()))
      X = List->getSubExpr()->IgnoreImplicit();
  return dyn_cast_or_null<InitListExpr>(X);
}

void UniformityAnalysis::noteInitializerCopies(const VarDecl *Buffer,
                                               VarState &S) {
  const InitListExpr *List =
      isLocal(Buffer) && !Buffer->getType()->isReferenceType()
          ? bracedElements(Buffer->getInit())
          : nullptr;
  if (!List)
    return;
  for (unsigned I = 0; I < List->getNumInits(); ++I)
    noteCopyInto(Buffer, I, List->getInit(I), S);
}

/// Erases the element entries that copied what Copied names.
static void forgetCopies(VarState &S,
                         llvm::function_ref<bool(const Taint &)> Copied) {
  for (auto It = S.begin(); It != S.end();)
    It = It->first.Index >= 0 && Copied(It->second) ? S.erase(It)
                                                    : std::next(It);
}

void UniformityAnalysis::forgetCopiesOfField(const FieldDecl *F, VarState &S) {
  if (CopiesIntoElements)
    forgetCopies(S, [&](const Taint &T) { return T.CopyOfField == F; });
}

void UniformityAnalysis::forgetCopiesOf(const VarDecl *VD, VarState &S) {
  if (CopiesIntoElements)
    forgetCopies(S, [&](const Taint &T) { return T.CopyOf == VD; });
}

} // namespace distlint
