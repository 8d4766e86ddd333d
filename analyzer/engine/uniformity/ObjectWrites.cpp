//===- ObjectWrites.cpp - What a call stores into objects' fields ---------===//
//
// A call writes fields it never names at the call: a helper stores its
// arguments into the fields it was given, a constructor into the object it
// builds, a method into its own object. Which ranks make the call, and what
// they pass, decides what those fields hold (TU-wide facts, Fields.cpp).
//
//===----------------------------------------------------------------------===//
#include "engine/UserCode.h"
#include "engine/ast/AstHelpers.h"
#include "engine/objects/OwnFieldWrites.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace distlint {

void UniformityAnalysis::noteParamFieldWrites(
    const llvm::MapVector<const FieldDecl *, FunctionResult::ParamFieldWrite>
        &ParamFields,
    llvm::ArrayRef<const Expr *> Args, const VarState &S, const Taint &Ctl) {
  for (auto &[Field, Write] : ParamFields) {
    uint64_t Mask = Write.Params;
    // The join of the arguments that reach the field (one argument: its
    // value, the rank included).
    std::optional<Taint> Joined;
    for (unsigned I = 0; I < Args.size() && I < 64; ++I)
      if (Mask & (uint64_t(1) << I)) {
        Taint A = eval(Args[I], S);
        if (Joined)
          Joined->join(A);
        else
          Joined = A;
      }
    if (!Joined)
      Joined = Taint();
    // An element of the field: the callers' values are its contents.
    if (Joined->Vary && Write.ElementsOnly) {
      Joined->ContentOnly = true;
      Joined->IsRank = false;
    }
    // Into the callee's own object (a struct it fills and returns): the
    // branch around the call is the control of what the caller stores.
    // An agreed value stored only where the branch is taken differs there,
    // unless a collective agrees on the field (as `if (rank == 0) cfg.n =
    // v;` in the caller: TuFacts::fieldVary).
    if (!Write.OwnedObjectsOnly) {
      if (Ctl.Vary && !Joined->Vary && !Joined->PendingVary)
        Joined->addPendingControl(Ctl);
      else
        Joined->addControl(Ctl);
    }
    noteFieldWrite(Field, *Joined);
  }
}

/// Is CE a temporary handed straight to a call (`igather(x, Vec(n), 0)`),
/// not stored by it (a container's push_back)? It lives for that call
/// only: a branch around it decides nothing about the other objects of
/// its class, whose facts are the TU's.
static bool constructsCallTemporary(ASTContext &Ctx,
                                    const CXXConstructExpr *CE) {
  DynTypedNode Node = DynTypedNode::create(*CE);
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    const Stmt *Parent = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
    if (!Parent)
      return false;
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Parent)) {
      if (MTE->getExtendingDecl())
        return false; // Bound to a reference that outlives the call.
    } else if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      const auto *Method =
          dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
      return !Method || !memberTypedef(Method->getParent(), "value_type");
    } else if (!isa<ImplicitCastExpr, CXXBindTemporaryExpr,
                    CXXFunctionalCastExpr, ParenExpr>(Parent)) {
      return false;
    }
    Node = Parents[0];
  }
  return false;
}

void UniformityAnalysis::constructionEffects(const CXXConstructExpr *CE,
                                             const VarState &S,
                                             const Taint &Ctl) {
  // A copy or move keeps the fields' own facts (they are written from
  // themselves); an implicit constructor stores nothing of its own.
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  // An implicit default constructor runs the class's own initializers
  // (`MPI_Comm inter = MPI_COMM_WORLD;`): a communicator field may hold that.
  if (Ctor && Ctor->isDefaultConstructor() && !Ctor->isUserProvided() &&
      isTaughtDecl(E, Ctor->getParent()))
    for (const FieldDecl *F : Ctor->getParent()->fields())
      if (const Expr *Init = F->getInClassInitializer())
        noteFieldCommunicatorWrite(F, Init);
  if (!Ctor || !Ctor->isUserProvided() || Ctor->isCopyOrMoveConstructor())
    return;
  const FunctionDecl *Def = Ctor->getDefinition();
  if (!Def || !Def->hasBody() || !isTaughtDecl(E, Def))
    return;
  if (FunctionResult *CR = P.analyze(Def)) {
    // A copy: for a constructor that builds its own class, CR is ours.
    // Members get what this construction passes (`rank_(rank)`, `cfg_(cfg)`,
    // `w_(torch::zeros({p.feat}))`). A reference member names the caller's
    // object, whose value later writes change.
    auto ParamFields = CR->ParamToField;
    ParamFields.remove_if([](const auto &Entry) {
      return Entry.first->getType()->isReferenceType();
    });
    llvm::SmallVector<const Expr *, 4> Args(CE->arguments());
    noteParamFieldWrites(ParamFields, Args, S,
                         constructsCallTemporary(E.context(), CE) ? Taint()
                                                                  : Ctl);
  }
}

void UniformityAnalysis::noteMethodUnderBranch(const CXXMethodDecl *Method,
                                               const Expr *Receiver,
                                               VarState &S, const Taint &Ctl) {
  const FieldSet *MayWrite = fieldsMethodMayWrite(E, Method);
  if (!MayWrite)
    return;
  // Whatever the method stores, only the ranks that take the branch store
  // it: like `if (rank == 0) cfg.sweeps = v;` for each field it may write
  // (pending: a collective that agrees on the field settles it).
  Taint T;
  T.UniformContent = true;
  T.addPendingControl(Ctl);
  const bool Owned =
      !isa<MemberExpr>(strip(Receiver)) && ownsObject(baseVar(Receiver));
  for (const FieldDecl *F : *MayWrite)
    if (isTaughtDecl(E, F)) {
      forgetField(S, F);
      noteFieldWrite(F, T, Owned);
    }
}

void UniformityAnalysis::noteMemberObjectMethod(const CXXMethodDecl *Method,
                                                const FieldDecl *Whole,
                                                VarState &S, const Taint &Ctl) {
  // What the method stores differs between ranks when it runs under a
  // branch that does, or when it writes some field a varying value.
  const FieldSet *MayWrite = fieldsMethodMayWrite(E, Method);
  bool Varies = Ctl.Vary || !MayWrite;
  if (MayWrite)
    for (const FieldDecl *F : *MayWrite)
      Varies = Varies || P.Tu.fieldVary(F) != nullptr;
  if (Varies)
    noteWholeWrite(Whole, S);
}

} // namespace distlint
