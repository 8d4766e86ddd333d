//===- FixedConditions.cpp ------------------------------------------------===//
#include "engine/cfg/FixedConditions.h"

#include "engine/Engine.h"
#include "engine/Values.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace distlint {

namespace {
/// Does Body change what Cond reads: a variable it names, or a field it
/// reads (assigned, incremented, its address taken)?
class ChangesCondition : public RecursiveASTVisitor<ChangesCondition> {
public:
  ChangesCondition(Engine &E, const Stmt *Body) : E(E), Body(Body) {}
  bool changes(const Expr *Cond) {
    Vars.clear();
    Fields.clear();
    Reads(*this).TraverseStmt(const_cast<Expr *>(Cond));
    for (const VarDecl *VD : Vars)
      if (isWrittenIn(E, VD, Body))
        return true;
    Found = false;
    if (!Fields.empty())
      TraverseStmt(const_cast<Stmt *>(Body));
    return Found;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      noteWrite(B->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      noteWrite(U->getSubExpr());
    return !Found;
  }

private:
  struct Reads : RecursiveASTVisitor<Reads> {
    ChangesCondition &Outer;
    explicit Reads(ChangesCondition &Outer) : Outer(Outer) {}
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Outer.Vars.push_back(VD);
      return true;
    }
    bool VisitMemberExpr(MemberExpr *M) {
      if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
        Outer.Fields.push_back(F);
      return true;
    }
  };
  void noteWrite(const Expr *X) {
    const auto *M = dyn_cast<MemberExpr>(X->IgnoreParenImpCasts());
    Found |= M && llvm::is_contained(Fields, M->getMemberDecl());
  }
  Engine &E;
  const Stmt *Body;
  llvm::SmallVector<const VarDecl *, 4> Vars;
  llvm::SmallVector<const Decl *, 4> Fields;
  bool Found = false;
};

/// The condition B's last element tests (`b` of `a && b`: its block ends
/// the `if`, whose own condition is the whole `a && b`).
const Expr *branchCondition(const CFGBlock *B) {
  if (B->succ_size() != 2)
    return nullptr;
  const Expr *Cond = B->getLastCondition();
  if (!Cond)
    Cond = dyn_cast_or_null<Expr>(B->getTerminatorCondition(/*Strip=*/true));
  return Cond ? Cond->IgnoreParenImpCasts() : nullptr;
}

} // namespace

/// Can To be reached from From without passing Avoid?
bool reachesAvoiding(const CFGBlock *From, const CFGBlock *To,
                     const CFGBlock *Avoid) {
  llvm::SmallVector<const CFGBlock *, 16> Work{From};
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!B || B == Avoid || !Seen.insert(B).second)
      continue;
    if (B == To)
      return true;
    Work.append(B->succ_begin(), B->succ_end());
  }
  return false;
}

FixedConditionSides::FixedConditionSides(Engine &E, const Stmt *FunctionBody,
                                         llvm::ArrayRef<const CFGBlock *> Deps,
                                         const CFGBlock *Block)
    : E(E) {
  ChangesCondition Changes(E, FunctionBody);
  for (const CFGBlock *Dep : Deps) {
    const Expr *Cond = branchCondition(Dep);
    if (!Cond || Changes.changes(Cond))
      continue;
    const CFGBlock *Taken = Dep->succ_begin()[0];
    const CFGBlock *Other = Dep->succ_begin()[1];
    bool ToTaken = Taken && reachesAvoiding(Taken, Block, Dep);
    bool ToOther = Other && reachesAvoiding(Other, Block, Dep);
    if (ToTaken == ToOther)
      continue;
    llvm::FoldingSetNodeID Id;
    Cond->Profile(Id, E.context(), /*Canonical=*/true);
    Sides.push_back({Id, ToTaken ? 0u : 1u});
  }
}

std::optional<unsigned>
FixedConditionSides::sideAt(const CFGBlock *Branch) const {
  const Expr *Cond = Sides.empty() ? nullptr : branchCondition(Branch);
  if (!Cond)
    return std::nullopt;
  llvm::FoldingSetNodeID Id;
  Cond->Profile(Id, E.context(), /*Canonical=*/true);
  for (const auto &[Known, Taken] : Sides)
    if (Known == Id)
      return Taken;
  return std::nullopt;
}

} // namespace distlint
