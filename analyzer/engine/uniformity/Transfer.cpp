//===- Transfer.cpp - Assignments and per-element transfer ---------------===//
//
// The uniformity data-flow's transfer function: what each CFG element
// (declaration, assignment, call, return) does to the state. The fixpoint
// over the CFG (rounds, control taint, widening): Fixpoint.cpp.
//
//===----------------------------------------------------------------------===//
#include "engine/Construction.h"
#include "engine/ast/MapKeys.h"
#include "engine/model/ApiModel.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Support/SaveAndRestore.h"

#include <functional>
#include <optional>

using namespace clang;

namespace distlint {

using api::Role;

/// A pointer or reference parameter to one writable scalar.
static bool isScalarOutParam(const ParmVarDecl *PD) {
  QualType T = PD->getType();
  return (T->isPointerType() || T->isReferenceType()) &&
         T->getPointeeType()->isScalarType() &&
         !T->getPointeeType().isConstQualified();
}

VarState UniformityAnalysis::entryState() {
  VarState S;
  if (FD)
    for (const ParmVarDecl *PD : FD->parameters())
      // A sequence by reference too: every path then holds its length key,
      // compared where the paths meet (the caller's length, until written).
      if (isScalarOutParam(PD) ||
          (PD->getType()->isReferenceType() && isValueSequence(PD->getType())))
        S[PD] = varTaint(PD, VarState());
  return S;
}

void UniformityAnalysis::assignVar(const VarDecl *VD, Taint T, VarState &S,
                                   bool Strong) {
  if (!VD)
    return;
  if (!VD->hasLocalStorage() || VD->isStaticLocal()) {
    if (!ObjectVaries)
      P.Tu.noteGlobalWrite(VD, T);
    return;
  }
  forgetFieldsOf(S, VD);
  forgetCopiesOf(VD, S);
  if (Strong)
    S[VD] = T;
  else {
    Taint Old = varTaint(VD, S);
    Old.join(T);
    S[VD] = Old;
  }
}

/// Can writing an element of an object of type T change its length? A
/// map's operator[] adds a missing key (types with a `key_type`); arrays,
/// tensors and sequence containers keep their length.
static bool elementWriteMayResize(QualType T) {
  T = T.getNonReferenceType();
  if (T->isArrayType() || T->isPointerType() || isTensorType(T))
    return false;
  const auto *RD = T->getAsCXXRecordDecl();
  return !RD || memberTypedef(RD, "key_type") ||
         !memberTypedef(RD, "value_type");
}

void UniformityAnalysis::assignLValue(const Expr *LHS, Taint T, VarState &S,
                                      bool Strong) {
  const Expr *L = strip(LHS);

  // Written through its address (`MPI_Comm_rank(comm, &rank)`).
  if (const auto *U = dyn_cast<UnaryOperator>(L);
      U && U->getOpcode() == UO_AddrOf &&
      isa<DeclRefExpr, MemberExpr>(strip(U->getSubExpr())))
    L = strip(U->getSubExpr());
  if (const auto *M = dyn_cast<MemberExpr>(L)) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (F) {
      forgetField(S, F);
      forgetCopiesOfField(F, S);
    }
    if (F && isTaughtDecl(E, F)) {
      // Fields of the project's own types are tracked per field (TU-wide),
      // so `job.rank` varying does not make `job.size` vary.
      noteFieldWrite(F, T, !M->isArrow() && ownsObject(fieldBase(M)));
      if (const FieldDecl *Whole =
              M->isArrow() ? nullptr : ownMemberObject(M->getBase());
          Whole && (T.Vary || T.PendingVary))
        noteWholeWrite(Whole, S);
      // A field of the object the method runs on: what this path wrote
      // there, while it agrees (read back before the TU-wide facts).
      if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
        noteOwnFieldWrite(F, T, S);
      // `MPI_Comm_rank(comm, &c_info->w_rank)`: on this path the field is
      // the rank, whatever other functions store there (a reset to -1 at
      // the end): branches on it are decided per rank class.
      if (T.IsRank)
        if (const VarDecl *Base = fieldBase(M))
          S[StateKey(Base, F)] = T;
      // A field of a local object written directly (`c.layers = v`): this
      // path knows what that object holds there, whatever other objects of
      // the type hold (returned field by field to the callers,
      // noteReturnedFields).
      if (const VarDecl *Base = localObjectOf(M))
        S[StateKey(Base, F)] = T;
      return;
    }
    if (const VarDecl *Base = baseVar(M->getBase()))
      assignVar(Base, T, S, /*Strong=*/false);
    return;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(L)) {
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
      // Assigning through a reference parameter writes the caller's object.
      assignVar(VD, T, S, Strong && !VD->getType()->isReferenceType());
      if (VD->getType()->isReferenceType() && isa<ParmVarDecl>(VD))
        assignVar(VD, T, S, true);
      if (auto It = RangeOfElement.find(VD); It != RangeOfElement.end())
        assignRangeElement(It->second, T, S);
    }
    return;
  }
  // `*out = v` through a pointer parameter to one scalar: the caller's
  // variable now holds v, whatever it held before (an out-parameter).
  if (const auto *U = dyn_cast<UnaryOperator>(L);
      Strong && U && U->getOpcode() == UO_Deref)
    if (const auto *DR = dyn_cast<DeclRefExpr>(strip(U->getSubExpr())))
      if (const auto *PD = dyn_cast<ParmVarDecl>(DR->getDecl());
          PD && PD->getType()->isPointerType() && isScalarOutParam(PD) &&
          owningFunction(PD) == FD) {
        // The pointee is the value: its contents agree when it does.
        Taint Value = T;
        Value.UniformContent = !Value.Vary;
        if (Value.Vary)
          Value.ContentOnly = true;
        assignVar(PD, Value, S, /*Strong=*/true);
        return;
      }
  // An element of what a field holds (`args->ms[i] = t`, `*s.out = v`):
  // that field's contents vary, not the object that has the field.
  const Expr *Inner = L;
  bool Pointee = false, Container = false;
  // The subscript of a map that may add its key (`m[k][j] = v`: m's).
  const CXXOperatorCallExpr *KeyedSubscript = nullptr;
  while (true) {
    Inner = strip(Inner);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Inner)) {
      Pointee |= AS->getBase()->getType()->isPointerType();
      Inner = AS->getBase();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Inner);
               OC && OC->getNumArgs() >= 1 &&
               (OC->getOperator() == OO_Subscript ||
                OC->getOperator() == OO_Star)) {
      // `A.elements[i] -= d`: an element of a container (a map's
      // operator[] may also add one, so its length is not kept).
      Container = true;
      if (OC->getOperator() == OO_Subscript &&
          elementWriteMayResize(OC->getArg(0)->getType()))
        KeyedSubscript = OC;
      Inner = OC->getArg(0);
    } else if (const auto *U = dyn_cast<UnaryOperator>(Inner);
               U &&
               (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf)) {
      Pointee |= U->getOpcode() == UO_Deref;
      Inner = U->getSubExpr();
    } else {
      break;
    }
  }
  // A key every way to this write has put in the map already: it adds
  // nothing, on any rank.
  const bool KeyPresent =
      KeyedSubscript && ControlVaries &&
      keyAlreadyPresent(KeyedSubscript, R.Body->Facts->parents(), E.context());
  if (const auto *M = dyn_cast<MemberExpr>(Inner); M && Inner != L) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    // An agreed element written with an agreed value under a branch every
    // rank takes (`km.centroids[i] = sums[i] / counts[c]` after the
    // all-reduce) leaves the field agreed on this path.
    std::optional<std::pair<StateKey, Taint>> StillAgreed;
    if (const VarDecl *Base = F ? fieldBase(M) : nullptr;
        Base && !M->isArrow() && Base->hasLocalStorage() &&
        !Base->getType()->isReferenceType() && !ControlVaries && !T.Vary &&
        !T.Params && !T.PendingVary)
      if (auto It = S.find(StateKey(Base, F));
          It != S.end() && !It->second.Vary && !It->second.Params)
        StillAgreed = *It;
    if (F)
      forgetField(S, F);
    if (StillAgreed)
      S.insert(*StillAgreed);
    if (F && isTaughtDecl(E, F)) {
      Taint Elem = T;
      // What the callers pass (Params) is marked too: noteFieldWrite keeps
      // for them whether the field's length can change.
      if (Elem.Vary || Elem.Params) {
        // As for a local container: only a map's operator[] under a branch
        // that differs between ranks may change its length.
        if (Pointee)
          Elem.PointeeOnly = true;
        else if (!Container || !ControlVaries || KeyPresent ||
                 !elementWriteMayResize(F->getType()))
          Elem.ContentOnly = true;
        Elem.IsRank = false;
      }
      noteFieldWrite(F, Elem, !M->isArrow() && ownsObject(fieldBase(M)));
      return;
    }
  }
  if (const VarDecl *VD = baseVar(L)) {
    // Writing an element changes contents, not the object's length (a
    // map's operator[] may add the key: elementWriteMayResize). An element
    // written under a branch that may differ between ranks differs there
    // (nothing compares it with the other path's elements): the implicit
    // flow settles now, into the contents only.
    Taint Elem = T;
    Elem.settle();
    const bool KeepsLength =
        KeyPresent || !elementWriteMayResize(VD->getType());
    if (Elem.Vary && (!ControlVaries || KeepsLength))
      Elem.ContentOnly = true;
    if (KeepsLength)
      Elem.ElementParams = Elem.Params;
    // A number's or a tensor's element is not a shape: the container keeps
    // its length, and with it its key (a list of tensors has its elements'
    // shapes in its key: the element's counts).
    QualType VT = VD->getType();
    if (!KeepsLength)
      Elem.ShapeKey = 0;
    else if (isValueSequence(VT) || isTensorType(VT) || KeyPresent) {
      Elem.ShapeKey = varTaint(VD, S).ShapeKey;
      Elem.ShapePending = false;
    }
    assignVar(VD, Elem, S, /*Strong=*/false);
  }
}

void UniformityAnalysis::assignRangeElement(const Expr *Range, Taint T,
                                            VarState &S) {
  // One element among the others: the contents, never the length.
  T.settle();
  if (!T.Vary)
    return; // A uniform element leaves the others as they were.
  T.ContentOnly = true;
  T.IsRank = false;
  T.Range.reset();
  T.ShapePending = false;
  const Expr *C = strip(Range);
  if (const auto *M = dyn_cast<MemberExpr>(C)) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (F && isTaughtDecl(E, F)) {
      forgetField(S, F);
      noteFieldWrite(F, T);
      return;
    }
  }
  if (const VarDecl *VD = baseVar(C)) {
    if (isValueSequence(VD->getType()))
      T.ShapeKey = varTaint(VD, S).ShapeKey; // Its length is what it was.
    assignVar(VD, T, S, /*Strong=*/false);
  }
}

/// The name of a uniform value: Value's structure and declarations, when
/// reading it has no effect (so it reads the same value wherever the state
/// is the same); 0 otherwise. Calls count when they yield a number: the
/// data-flow has shown this one gives every rank the same result, so the
/// same call on the same inputs in another arm of a rank branch gives it
/// too (`rounds = parse_steps(argc)` on both sides). Rank-local sources
/// (clocks, random numbers) vary and get no name.
/// Every call in X names its callee (none through a function pointer,
/// whose target the expression would not fix).
static bool callsOnlyNamedFunctions(const Stmt *X) {
  if (const auto *C = dyn_cast<CallExpr>(X); C && !C->getDirectCallee())
    return false;
  for (const Stmt *Child : X->children())
    if (Child && !callsOnlyNamedFunctions(Child))
      return false;
  return true;
}

uint64_t valueKeyOf(const Expr *Value, const Taint &T, const ASTContext &Ctx) {
  // Parameters count: within one call of the function they hold one value
  // (a name never leaves its function: call results start unnamed).
  if (!Value || T.Vary || T.PendingVary || T.PendingParams)
    return 0;
  // A value that already has a name (a variable that holds one, an element
  // of a broadcast's message) keeps it.
  if (T.ValueKey)
    return T.ValueKey;
  Value = Value->IgnoreParenImpCasts();
  // Code with errors (an undeclared macro in a size) has no value to name,
  // and its recovery nodes may lack a type.
  if (Value->containsErrors() || Value->getType().isNull())
    return 0;
  if (Value->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return 0;
  if (Value->HasSideEffects(Ctx) &&
      (!Value->getType()->isArithmeticType() || !callsOnlyNamedFunctions(Value)))
    return 0;
  llvm::FoldingSetNodeID ID;
  Value->Profile(ID, Ctx, /*Canonical=*/true);
  return ID.ComputeHash() | 1;
}

/// Does the constructor's body overwrite F before anything can read it: is
/// the first top-level statement of the body that names F a write of it
/// (`rank_ = r;`, `MPI_Comm_rank(comm_, &rank_);`), with no `return` or
/// `throw` before? Then the member's initializer (`int rank_ = 0;`) is
/// never seen outside the constructor and is not one of the field's values.
static bool overwrittenInBody(const FunctionDecl *FD, const FieldDecl *F) {
  const auto *Body =
      isa<CXXConstructorDecl>(FD) ? dyn_cast<CompoundStmt>(FD->getBody())
                                  : nullptr;
  if (!Body)
    return false;
  auto IsF = [&](const Expr *X) {
    const auto *M = dyn_cast_or_null<MemberExpr>(X ? X->IgnoreParenImpCasts()
                                                   : nullptr);
    return M && M->getMemberDecl() == F &&
           isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts());
  };
  bool Reads = false, Writes = false, Leaves = false;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S)
      return;
    if (isa<ReturnStmt, CXXThrowExpr>(S))
      Leaves = true;
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && B->getOpcode() == BO_Assign && IsF(B->getLHS())) {
      Writes = true;
      Visit(B->getRHS());
      return;
    }
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      Visit(C->getCallee());
      for (const Expr *A : C->arguments()) {
        const auto *U = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts());
        if (U && U->getOpcode() == UO_AddrOf && IsF(U->getSubExpr()))
          Writes = true; // An out-parameter: `MPI_Comm_rank(c, &rank_)`.
        else
          Visit(A);
      }
      return;
    }
    if (const auto *X = dyn_cast<Expr>(S); X && IsF(X)) {
      Reads = true;
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  for (const Stmt *S : Body->body()) {
    Visit(S);
    if (Reads || (Leaves && !Writes))
      return false;
    if (Writes)
      return isa<Expr>(S); // Not a write under a branch or in a loop.
  }
  return false;
}

void UniformityAnalysis::transfer(const CFGElement &El, VarState &S,
                                  const Taint &Ctl) {
  llvm::SaveAndRestore<const Taint *> UnderControl(WriteControl, &Ctl);
  ++CurrentElement;
  if (auto Init = El.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *CI = Init->getInitializer();
    if (const FieldDecl *F = CI->getMember(); F && CI->getInit()) {
      Taint T = eval(CI->getInit(), S);
      T.addControl(Ctl);
      if (isTaughtDecl(E, F) && !overwrittenInBody(FD, F))
        noteFieldWrite(F, T);
      if (isTaughtDecl(E, F))
        noteOwnFieldWrite(F, T, S);
      noteFieldCommunicatorWrite(F, CI->getInit());
    }
    return;
  }
  if (auto End = El.getAs<CFGLifetimeEnds>()) {
    // Out of scope: nothing can read it any more.
    if (const VarDecl *VD = End->getVarDecl()) {
      forgetFieldsOf(S, VD);
      S.erase(VD);
    }
    return;
  }
  auto CS = El.getAs<CFGStmt>();
  if (!CS)
    return;
  ControlVaries = Ctl.Vary;
  const Stmt *St = CS->getStmt();
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        Taint T;
        if (const Expr *Init = VD->getInit()) {
          T = eval(Init, S);
          T.ValueKey = valueKeyOf(Init, T, E.context());
          llvm::SmallVector<const VarDecl *, 2> Refs;
          collectVarRefs(Init, Refs);
          for (const VarDecl *V : Refs)
            if (V != VD && isTensorType(V->getType()) &&
                !isTensorType(VD->getType()))
              P.addAlias(VD, V);
          // A copy of a sub-communicator is one too.
          if (holdsSubCommunicator(Init))
            P.Tu.noteSubCommunicator(VD);
          noteGroupOfMembers(VD, Init, S, Ctl);
        } else {
          T.UniformContent = !isTensorType(VD->getType());
        }
        // `for (auto &b : buckets)`: each element, read through the
        // iterator (whose begin() reads only the container's shape).
        if (VD->isCXXForRangeDecl())
          if (const auto *FR = dyn_cast_or_null<CXXForRangeStmt>(
                  R.Body->Facts->parents().getParent(DS)))
            if (const Expr *Range = FR->getRangeInit()) {
              if (VD->getType()->isReferenceType())
                RangeOfElement[VD] = Range;
              Taint Elements = eval(Range, S);
              if (Elements.depends()) {
                // A number differs as a whole; an inner container may
                // differ only in its contents, as the outer one does.
                QualType ElemT = VD->getType().getNonReferenceType();
                if (ElemT->isArithmeticType() || ElemT->isEnumeralType() ||
                    ElemT->isPointerType())
                  Elements.ContentOnly = false;
                Elements.PointeeOnly = false;
                Elements.IsRank = false;
                Elements.Range.reset();
                Elements.ShapeKey = Elements.ValueKey = 0;
                T.join(Elements);
              } else if (Elements.UniformContent && !T.depends()) {
                // The elements of agreed contents (an all-gather's output)
                // are agreed too, tensors included.
                T.UniformContent = true;
              }
            }
        // A known value a declaration gives is the same on every path that
        // reaches a use (each passes the declaration): the branches around
        // it decide nothing (`size_t i = 1;` in rank 0's arm).
        if (VD->isStaticLocal() || !isLocal(VD))
          T.addControl(Ctl);
        assignVar(VD, T, S, true);
        if (const Expr *Init = VD->getInit())
          assignFields(VD, Init, S, Ctl);
        noteInitializerCopies(VD, S);
      }
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(St)) {
    if (B->isAssignmentOp()) {
      Taint T = eval(B->getRHS(), S);
      T.ValueKey = valueKeyOf(B->getRHS(), T, E.context());
      if (B->isCompoundAssignmentOp()) {
        T.join(eval(B->getLHS(), S));
        T.Range.reset();
        T.ValueKey = 0;
      }
      const auto *Target = dyn_cast<DeclRefExpr>(strip(B->getLHS()));
      const auto *TargetVar =
          Target ? dyn_cast<VarDecl>(Target->getDecl()) : nullptr;
      T.addControl(TargetVar ? controlSinceDeclaration(TargetVar, Ctl) : Ctl);
      ElementEntries Kept = elementEntries(B->getLHS(), S);
      assignLValue(B->getLHS(), T, S, !B->isCompoundAssignmentOp());
      if (!B->isCompoundAssignmentOp())
        noteElementCopy(B, S, Kept);
      if (const auto *DR = dyn_cast<DeclRefExpr>(strip(B->getLHS()));
          DR && !B->isCompoundAssignmentOp())
        if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
          assignFields(VD, B->getRHS(), S, Ctl);
      if (const auto *IC = dyn_cast<CallExpr>(strip(B->getRHS())))
        if (E.apiRole(IC, Role::CommSplit) && !accessedField(B->getLHS()))
          if (const VarDecl *VD = baseVar(B->getLHS()))
            P.Tu.noteSubCommunicator(VD);
      noteSubCommunicatorCopy(B);
      noteGroupOfMembers(B->getLHS(), B->getRHS(), S, Ctl);
    }
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(St)) {
    if (U->isIncrementDecrementOp()) {
      Taint T = eval(U->getSubExpr(), S);
      // A counter keeps a known value one step on (`n = sizes[i++]`); the
      // value it held is no longer what it names.
      T.Range = steppedRange(T.Range, U->getSubExpr()->getType(),
                             U->isIncrementOp() ? 1 : -1);
      T.ValueKey = T.RootKey = 0;
      T.RootRank = -1;
      T.IsRank = false;
      const auto *Counter = dyn_cast<DeclRefExpr>(strip(U->getSubExpr()));
      const auto *CounterVar =
          Counter ? dyn_cast<VarDecl>(Counter->getDecl()) : nullptr;
      T.addControl(CounterVar ? controlSinceDeclaration(CounterVar, Ctl) : Ctl);
      assignLValue(U->getSubExpr(), T, S, true);
    }
    return;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(St)) {
    if (OC->isAssignmentOp() && OC->getNumArgs() == 2) {
      Taint T = eval(OC->getArg(1), S);
      // In-place arithmetic on a tensor (`w_ -= lr * g`) writes values into
      // the tensor it has: its shape stays what it was, whatever the
      // operand and the branch (a std::string's `+=` grows it: tensors only).
      bool KeepsShape = OC->getOperator() != OO_Equal &&
                        isTensorType(OC->getArg(0)->getType());
      Taint Before = KeepsShape ? eval(OC->getArg(0), S) : Taint();
      if (KeepsShape) {
        T.join(Before);
        T.IsRank = false;
        T.Range.reset();
        T.ValueKey = 0;
      } else if (OC->getOperator() == OO_Equal) {
        // `cfg.dir = "ckpt"` names its value as `n = 5` does: stored under a
        // branch, it is pending, and a collective can agree on it.
        T.ValueKey = valueKeyOf(OC->getArg(1), T, E.context());
      }
      T.addControl(Ctl);
      // What the callers pass (Params) reaches the values only too: a field
      // written so holds their arguments as elements (noteFieldWrite).
      if (KeepsShape && (T.Vary || T.Params) &&
          (!Before.Vary || Before.ContentOnly)) {
        T.ContentOnly = true;
        T.ShapeKey = Before.ShapeKey;
        T.UniformContent = false;
      }
      assignLValue(OC->getArg(0), T, S, OC->getOperator() == OO_Equal);
      noteGroupOfMembers(OC->getArg(0), OC->getArg(1), S, Ctl);
      return;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(St)) {
    callEffects(Call, S, Ctl);
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(St)) {
    // What the constructor stores from its parameters (`rank_(rank)`).
    constructionEffects(CE, S, Ctl);
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(St)) {
    Taint T = eval(Ret->getRetValue(), S);
    T.addControl(Ctl);
    noteReturnedFields(Ret->getRetValue(), S, Ctl);
    // The first return sets the value (its range too); later ones join.
    if (R.ReturnsSeen++ == 0)
      R.ReturnTaint = T;
    else
      R.ReturnTaint.mergePaths(T);
    return;
  }
}

} // namespace distlint
