//===- Fields.cpp - What the data-flow knows of fields -------------------===//
//
// `Shard s = {rank * n, n};` or `Shard s = shardOf(n, rank);` gives each
// field of s its own value: a rank-dependent offset beside a uniform size.
// The path records them as field entries of s (VarState.h), and a function
// that returns such a struct summarizes its fields, so that its callers'
// copies keep them apart. A collective agrees a field on the path; every
// write of a field joins the TU's facts of it.
//
//===----------------------------------------------------------------------===//
#include "engine/Values.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {

namespace {

/// Records whose fields are the braced list's elements, in order: plain
/// structs (no bases, no unions), not too wide to track.
const RecordDecl *fieldwiseRecord(QualType T) {
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD || RD->isUnion() || !RD->getDefinition())
    return nullptr;
  RD = RD->getDefinition();
  // Bases that hold nothing (std::pair's) leave the fields in order.
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
    for (const CXXBaseSpecifier &Base : CRD->bases())
      if (const CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl();
          !B || !B->hasDefinition() || !B->isEmpty())
        return nullptr;
  constexpr unsigned kMaxFields = 64;
  unsigned N = 0;
  for (const FieldDecl *F : RD->fields()) {
    (void)F;
    if (++N > kMaxFields)
      return nullptr;
  }
  return RD;
}

/// The values a value's fields are built from, in order: a braced list's
/// elements, or the arguments of a pair's element-wise constructor
/// (`return {rank * n, n};`, `std::make_pair(off, n)`). Empty if none.
llvm::SmallVector<const Expr *, 4> fieldInits(const Expr *Value) {
  llvm::SmallVector<const Expr *, 4> Inits;
  const Expr *X = strip(Value);
  const auto *ILE = dyn_cast<InitListExpr>(X);
  if (const auto *CL = dyn_cast<CompoundLiteralExpr>(X))
    ILE = dyn_cast<InitListExpr>(CL->getInitializer());
  if (ILE && !ILE->isSemanticForm())
    ILE = ILE->getSemanticForm();
  if (ILE) {
    Inits.append(ILE->inits().begin(), ILE->inits().end());
    return Inits;
  }
  const CallExpr *MakePair = dyn_cast<CallExpr>(X);
  const FunctionDecl *Maker = MakePair ? MakePair->getDirectCallee() : nullptr;
  if (Maker && Maker->isInStdNamespace() && Maker->getIdentifier() &&
      Maker->getName() == "make_pair" && MakePair->getNumArgs() == 2) {
    Inits.append(MakePair->arg_begin(), MakePair->arg_end());
    return Inits;
  }
  const auto *CE = dyn_cast<CXXConstructExpr>(X);
  const CXXRecordDecl *RD =
      CE && CE->getConstructor() ? CE->getConstructor()->getParent() : nullptr;
  if (RD && RD->isInStdNamespace() && RD->getName() == "pair" &&
      CE->getNumArgs() == 2 && !CE->getConstructor()->isCopyOrMoveConstructor())
    Inits.append(CE->arg_begin(), CE->arg_end());
  return Inits;
}

/// The user call a value is the (copied) result of, if any.
const CallExpr *resultOfCall(const Expr *Value) {
  const Expr *X = strip(Value);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(X);
      CE && CE->getNumArgs() == 1 &&
      CE->getConstructor()->isCopyOrMoveConstructor())
    X = strip(CE->getArg(0));
  return dyn_cast<CallExpr>(X);
}

} // namespace

void UniformityAnalysis::assignFields(const VarDecl *VD, const Expr *Value,
                                      VarState &S, const Taint &Ctl) {
  if (!VD || !Value || !isLocal(VD))
    return;
  const RecordDecl *RD = fieldwiseRecord(VD->getType());
  if (!RD)
    return;
  if (auto Inits = fieldInits(Value); !Inits.empty()) {
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      if (I >= Inits.size())
        break;
      Taint T = eval(Inits[I++], S);
      T.addControl(Ctl);
      S[StateKey(VD, F)] = T;
    }
    return;
  }
  const CallExpr *Call = resultOfCall(Value);
  const FunctionDecl *Callee = Call ? E.resolveCallee(Call) : nullptr;
  if (!Callee || !Callee->hasBody() || !isTaughtDecl(E, Callee))
    return;
  const FunctionDecl *Def = Callee->getDefinition();
  FunctionResult *CR = P.analyze(Def ? Def : Callee);
  if (!CR || CR->ReturnFieldsUnknown || CR->ReturnFields.empty())
    return;
  const auto Fields = CR->ReturnFields; // A recursive call may change them.
  llvm::ArrayRef<const Expr *> Args = splitCall(Call, Callee).second;
  for (const auto &[F, FT] : Fields) {
    if (!FT)
      continue; // A read gives what the TU-wide field facts say.
    Taint T = *FT;
    uint64_t From = T.Params;
    const Taint Summary = T;
    T.Params = T.ShapeParams = 0;
    for (unsigned I = 0; I < Args.size() && I < 64; ++I)
      if (From & (uint64_t(1) << I))
        T.join(Summary.argumentTaint(I, passedArgument(*CR, I, Args[I], S)));
    T.addControl(Ctl);
    S[StateKey(VD, F)] = T;
  }
}

void UniformityAnalysis::noteReturnedFields(const Expr *Value,
                                            const VarState &S,
                                            const Taint &Ctl) {
  if (!Value || R.ReturnFieldsUnknown)
    return;
  const RecordDecl *RD = fieldwiseRecord(Value->getType());
  if (!RD)
    return;
  llvm::SmallVector<std::pair<const FieldDecl *, std::optional<Taint>>, 4>
      Fields;
  const auto Inits = fieldInits(Value);
  const auto *DR = dyn_cast<DeclRefExpr>(strip(Value));
  const auto *Local = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (Local && !isLocal(Local))
    Local = nullptr;
  unsigned I = 0;
  for (const FieldDecl *F : RD->fields()) {
    std::optional<Taint> T;
    if (!Inits.empty()) {
      if (I >= Inits.size())
        break;
      T = eval(Inits[I++], S);
    } else if (Local) {
      // What the path knows of the field, if anything.
      auto Known = S.find(StateKey(Local, F));
      if (Known != S.end())
        T = Known->second;
    } else {
      break;
    }
    if (T)
      T->addControl(Ctl);
    Fields.push_back({F, T});
  }
  if (Fields.empty()) {
    R.ReturnFieldsUnknown = true;
    R.ReturnFields.clear();
    return;
  }
  if (R.ReturnFields.empty()) {
    R.ReturnFields = std::move(Fields);
    return;
  }
  for (auto &Entry : R.ReturnFields) {
    auto It = llvm::find_if(
        Fields, [&](const auto &P) { return P.first == Entry.first; });
    if (It == Fields.end()) {
      R.ReturnFieldsUnknown = true;
      R.ReturnFields.clear();
      return;
    }
    if (Entry.second && It->second)
      Entry.second->mergePaths(*It->second);
    else
      Entry.second.reset();
  }
}

void UniformityAnalysis::markUniform(const Expr *Buffer, VarState &S,
                                     uint64_t Params) {
  // `MPI_Bcast(&params->n, ...)`: this path now knows the field agrees,
  // whatever the TU-wide facts say of its other writes.
  const Expr *Target = strip(Buffer);
  if (const auto *U = dyn_cast<UnaryOperator>(Target);
      U && U->getOpcode() == UO_AddrOf)
    Target = strip(U->getSubExpr());
  // The same of a container field's storage (`km.centroids.data()`,
  // `&m.rows[0]`): its elements agree on this path; its length is what it was.
  // The object that has the field keeps what it was (`m->grads` agreed says
  // nothing of `m->local_rows`).
  const VarDecl *FieldOwner = nullptr;
  if (const auto *M = dyn_cast<MemberExpr>(storageOwner(Target)))
    if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl())) {
      const bool Storage = M != Target;
      if (!Storage) {
        noteAgreedHere(F);
        // A member struct received whole (`MPI_Bcast(&cfg_, sizeof cfg_,
        // MPI_BYTE, ...)`): its fields are agreed too.
        if (const RecordDecl *RD = F->getType()->getAsRecordDecl();
            RD && RD->getDefinition())
          for (const FieldDecl *Inner : RD->getDefinition()->fields())
            noteAgreedHere(Inner);
      }
      if (!Storage && isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts())) {
        Taint T;
        T.UniformContent = true;
        T.Params = Params;
        S[StateKey::thisField(F)] = T;
      }
      if (const VarDecl *Base = fieldBase(M); Base && Base->hasLocalStorage()) {
        Taint T;
        T.UniformContent = true;
        T.Params = Params;
        if (auto Old = S.find(StateKey(Base, F)); Storage && Old != S.end()) {
          T.ShapeKey = Old->second.ShapeKey;
          // Its length agreed on this path (`cfg.dir.resize(n)`, n agreed)
          // and now its elements: the field agrees, for every reader.
          const Taint &Length = Old->second;
          if ((!Length.Vary || Length.ContentOnly) && !Length.Params &&
              !Length.PendingVary && !Length.PendingParams)
            noteAgreedHere(F);
        }
        S[StateKey(Base, F)] = T;
        FieldOwner = Base;
        settleAgreedObject(Base, S);
      }
    }
  llvm::SmallVector<const VarDecl *, 4> Vars;
  collectVarRefs(Buffer, Vars);
  for (size_t I = 0; I < Vars.size(); ++I) {
    auto A = P.Aliases.find(Vars[I]);
    if (A != P.Aliases.end())
      for (const VarDecl *V : A->second)
        if (!llvm::is_contained(Vars, V))
          Vars.push_back(V);
  }
  for (const VarDecl *VD : Vars) {
    if (!VD->hasLocalStorage() || VD == FieldOwner)
      continue;
    // The collective agrees on the contents; the shape is what it was.
    Taint T;
    T.UniformContent = true;
    T.Params = Params;
    auto Old = S.find(VD);
    if (Old != S.end())
      T.ShapeKey = Old->second.ShapeKey;
    S[VD] = T;
    // A whole struct received (`MPI_Bcast(&cfg, sizeof cfg, MPI_BYTE, ...)`):
    // every field of it agrees on this path, whatever other writes of those
    // fields elsewhere say.
    if (const auto *DR = dyn_cast<DeclRefExpr>(Target);
        DR && DR->getDecl() == VD)
      markFieldsAgreed(VD, S);
  }
}

const FieldDecl *UniformityAnalysis::ownMemberObject(const Expr *X) {
  const auto *M = X ? dyn_cast<MemberExpr>(X->IgnoreParenImpCasts()) : nullptr;
  const auto *F = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
  if (!F || !isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()) ||
      !F->getType()->isRecordType())
    return nullptr;
  return F;
}

void UniformityAnalysis::noteWholeWrite(const FieldDecl *F, VarState &S) {
  if (ObjectVaries)
    return;
  S.erase(StateKey::thisField(F));
  P.Tu.noteFieldVaryWriter(F, FD);
  VaryWrittenFields.insert(F);
}

void UniformityAnalysis::noteOwnFieldWrite(const FieldDecl *F, const Taint &T,
                                           VarState &S) {
  // Only a value every rank holds alike (a constant, a named value, one a
  // collective agreed): what the callers pass, or the rank, is read from
  // the TU-wide facts as before (a field every construction gives the
  // rank is the rank).
  if (!T.Vary && !T.Params && !T.PendingParams && !T.IsRank)
    S[StateKey::thisField(F)] = T;
}

void UniformityAnalysis::settleAgreedObject(const VarDecl *Base, VarState &S) {
  if (!ownsObject(Base))
    return;
  auto Whole = S.find(Base);
  if (Whole == S.end() ||
      !(Whole->second.depends() || Whole->second.PendingVary))
    return;
  const auto *RD = Base->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->getDefinition()->getNumBases() ||
      RD->getDefinition()->field_empty())
    return;
  for (const FieldDecl *F : RD->getDefinition()->fields()) {
    auto It = S.find(StateKey(Base, F));
    if (It == S.end() || It->second.depends() || It->second.PendingVary ||
        It->second.PendingParams)
      return;
  }
  Taint T;
  T.UniformContent = true;
  T.ShapeKey = Whole->second.ShapeKey;
  Whole->second = T;
}

void UniformityAnalysis::markFieldsAgreed(const VarDecl *Base, VarState &S) {
  const auto *RD = Base->getType().getNonReferenceType()->getAsRecordDecl();
  if (!RD || !RD->getDefinition())
    return;
  Taint T;
  T.UniformContent = true;
  for (const FieldDecl *F : RD->getDefinition()->fields()) {
    noteAgreedHere(F);
    S[StateKey(Base, F)] = T;
  }
}

void UniformityAnalysis::noteFieldWrite(const FieldDecl *F,
                                        const Taint &Written,
                                        bool OwnedObject) {
  if (ObjectVaries)
    return; // A question about one method, not what the program writes.
  // A member struct of the project's own written whole (`cfg_ =
  // parse(path)` on rank 0): each of its fields is written, as its fields'
  // facts are kept, and each is decided by its own agreements (broadcast
  // one by one before anything reads them).
  if ((Written.Vary || Written.PendingVary) && !Written.Params &&
      !Written.PendingParams)
    if (const RecordDecl *RD = fieldwiseRecord(F->getType());
        RD && isTaughtDecl(E, RD) && !RD->field_empty()) {
      for (const FieldDecl *Inner : RD->fields())
        noteFieldWrite(Inner, Written, OwnedObject);
      return;
    }
  // Nor a merge point to settle a write under a branch on the parameters
  // at (`for (int t : tokens) params_[t % 4].used = true;`): whether it
  // happens is the callers' arguments' to decide, as its value would be.
  Taint T = Written;
  if (T.PendingParams) {
    T.Params |= T.PendingParams;
    T.ElementParams &= ~T.PendingParams;
    T.PendingParams = 0;
  }
  // Noted by site when the round ends (commitFieldWrites): only then is the
  // control final, and WriterAgreement.cpp decides whether a store on some
  // ranks only (the root's tuned parameter) is agreed before it is seen.
  if (T.Vary) {
    SiteWrite &W =
        RoundFieldWrites[{F, CurrentBlock ? CurrentBlock->getBlockID() : ~0u}];
    W.Value.join(T);
    W.Element = std::min(W.Element, CurrentElement);
    W.SomeRanksOnly = WriteControl && WriteControl->Vary;
    if (!InRounds)
      commitFieldWrites();
  }
  if (T.Vary || T.PendingVary) {
    P.Tu.noteFieldVaryWriter(F, FD);
    VaryWrittenFields.insert(F);
  }
  // A field's facts hold for the whole TU, with no merge point to compare
  // the arms' values at: a named value written under a branch that differs
  // between ranks (`if (rank == 0) cfg.every = 5;`) differs there, unless a
  // collective agrees on the field (TuFacts::fieldVary).
  if (!T.Vary && T.PendingVary) {
    Taint Settled = T;
    Settled.ShapePending = false; // Nor a shape to compare it with.
    Settled.settle();
    P.Tu.noteFieldPendingVary(F, Settled);
  }
  if (T.Params) {
    // The callers record the value their arguments give it.
    auto It = R.ParamToField.find(F);
    if (It != R.ParamToField.end()) {
      It->second.Params |= T.Params;
      It->second.ElementsOnly = It->second.ElementsOnly && T.ContentOnly;
      It->second.OwnedObjectsOnly = It->second.OwnedObjectsOnly && OwnedObject;
      return;
    }
    if (R.ParamToField.size() < P.Limits.ParamFieldWrites) {
      R.ParamToField.insert({F, {T.Params, T.ContentOnly, OwnedObject}});
      return;
    }
    // Untracked from here on: the callers' arguments no longer reach F.
    P.Limits.hit("parameter-field writes", FD->getQualifiedNameAsString());
    return;
  }
  P.Tu.noteFieldValue(F, T);
}

/// The record a parameter gives the body read-only access to: by value or
/// by reference, or through a pointer to const.
static const RecordDecl *parameterObject(const ParmVarDecl *PD) {
  QualType T = PD->getType();
  if (T->isPointerType()) {
    T = T->getPointeeType();
    if (!T.isConstQualified())
      return nullptr;
  }
  return T.getNonReferenceType()->getAsRecordDecl();
}

void UniformityAnalysis::commitFieldWrites() {
  for (const auto &[Site, W] : RoundFieldWrites)
    P.Tu.noteFieldVaries(Site.first, W.Value, FD, Site.second, W.AgreedHere);
  RoundFieldWrites.clear();
}

bool UniformityAnalysis::noteParamFieldRead(const ParmVarDecl *PD,
                                            const FieldDecl *F) {
  if (!PD || !FD || !FD->getBody() || PD->getDeclContext() != FD ||
      ObjectVaries || R.ParamFieldReadsFull || !parameterObject(PD) ||
      PD->getFunctionScopeIndex() >= 64 || isWrittenIn(E, PD, FD->getBody()))
    return false;
  std::pair<unsigned, const FieldDecl *> Read{PD->getFunctionScopeIndex(), F};
  if (llvm::is_contained(R.ParamFieldReads, Read))
    return true;
  if (R.ParamFieldReads.size() >= P.Limits.ParamFieldWrites) {
    P.Limits.hit("parameter-field reads", FD->getQualifiedNameAsString());
    R.ParamFieldReadsFull = true;
    return false;
  }
  R.ParamFieldReads.push_back(Read);
  return true;
}

Taint UniformityAnalysis::evalMember(const MemberExpr *M, const VarState &S) {
  Taint T;
  const auto *Field = dyn_cast<FieldDecl>(M->getMemberDecl());
  if (!isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
    T = eval(M->getBase(), S);
  else if (ObjectVaries && !factsPerField(Field)) {
    T.Vary = true;
    T.Origin = *ObjectVaries;
  }
  if (M->isArrow())
    T.PointeeOnly = false; // Reads the object, not the pointer.
  if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl())) {
    // Agreed on this path since its last write (VarState.h).
    if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
      if (auto Own = S.find(StateKey::thisField(F)); Own != S.end())
        return Own->second;
    if (const VarDecl *Base = fieldBase(M)) {
      auto Agreed = S.find(StateKey(Base, F));
      if (Agreed != S.end())
        return Agreed->second;
    }
    // Through a member object agreed whole (`settings_.sweeps` after
    // `MPI_Bcast(&settings_, ...)`): on this path, or by every method
    // that writes it.
    if (const FieldDecl *Whole =
            !M->isArrow() ? ownMemberObject(M->getBase()) : nullptr) {
      auto Own = S.find(StateKey::thisField(Whole));
      if (Own != S.end() && !Own->second.Vary && !Own->second.PendingVary)
        return Own->second;
      if (Own == S.end() && P.Tu.wholeAgreed(Whole, FD))
        return T;
    }
    // Whatever the TU wrote there. Where that differs only because some
    // object got a value on some ranks (`if (rank == 0) mine.steps = 1;`),
    // a parameter object holds what its callers' objects hold: the value
    // has the parameter. A field that holds a rank (of the world or of a
    // sub-communicator) is read as that rank, which rank classes decide.
    const Taint *FT = P.Tu.fieldVary(F, FD);
    const bool HoldsRank =
        (FT && FT->Origin.Comm) || (P.Tu.fieldIsRank(F) && isTaughtDecl(E, F));
    if (FT && (HoldsRank || !P.Tu.fieldVariesByBranchOnly(F) ||
               !readsCallersField(M, F)))
      T.join(*FT);
    // The field's range over every write in the TU, if all agree.
    T.Range.reset();
    // A field that differs between ranks because some write happens on
    // some ranks only holds its earlier value on the others: one value
    // written is not the only value read.
    if (isTaughtDecl(E, F))
      T.Range = P.Tu.fieldRange(F);
    if (T.Vary && T.Range && T.Range->Lo == T.Range->Hi)
      T.Range.reset();
    // Holds the rank when every write seen stores it (`rank_ = r`).
    T.IsRank = P.Tu.fieldIsRank(F) && isTaughtDecl(E, F);
  }
  return T;
}

bool UniformityAnalysis::readsCallersField(const MemberExpr *M,
                                           const FieldDecl *F) {
  const auto *PD = dyn_cast_or_null<ParmVarDecl>(fieldBase(M));
  const RecordDecl *RD = PD ? parameterObject(PD) : nullptr;
  return RD &&
         F->getParent()->getCanonicalDecl() == RD->getCanonicalDecl() &&
         M->isArrow() == PD->getType()->isPointerType() &&
         noteParamFieldRead(PD, F);
}

Taint UniformityAnalysis::passedArgument(const FunctionResult &Callee,
                                         unsigned Index, const Expr *Arg,
                                         const VarState &S) {
  Taint T = eval(Arg, S);
  const Expr *Object = strip(Arg);
  if (const auto *U = dyn_cast<UnaryOperator>(Object);
      U && U->getOpcode() == UO_AddrOf)
    Object = strip(U->getSubExpr());
  const auto *DR = dyn_cast<DeclRefExpr>(Object);
  const auto *Base = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  for (const auto &[I, F] : Callee.ParamFieldReads) {
    if (I != Index)
      continue;
    // What this path knows of the object's field, or, for an object this
    // function was given in turn, what its callers pass (T has the
    // parameter); otherwise whatever the TU wrote there.
    if (Base)
      if (auto Known = S.find(StateKey(Base, F)); Known != S.end()) {
        T.join(Known->second);
        continue;
      }
    if (noteParamFieldRead(dyn_cast_or_null<ParmVarDecl>(Base), F))
      continue;
    if (const Taint *FT = P.Tu.fieldVary(F, FD))
      T.join(*FT);
  }
  return T;
}

} // namespace distlint
