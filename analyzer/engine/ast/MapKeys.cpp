//===- MapKeys.cpp - Keys a map surely holds where it is indexed ----------===//
//
// Structured code only: a statement before the write in an enclosing block
// runs on every way into the statements after it (a block with case or
// goto labels is skipped), and loops around that block run it again
// before each of their iterations reaches the write.
//
//===----------------------------------------------------------------------===//
#include "engine/ast/MapKeys.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>
#include <string>

using namespace clang;

namespace distlint {
namespace {

/// Looks through full-expression cleanups and temporaries.
const Expr *throughTemporaries(const Expr *E) {
  for (int Depth = 0; E && Depth < 12; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else
      return E;
  }
  return E;
}

/// A construction from one value and defaulted arguments only
/// (`std::string("loss")` with its allocator).
bool fromOneValue(const CXXConstructExpr *C) {
  return C->getNumArgs() >= 1 && !isa<CXXDefaultArgExpr>(C->getArg(0)) &&
         llvm::all_of(llvm::drop_begin(C->arguments()),
                      [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); });
}

/// The constant a key names, spelled so that equal keys compare equal.
std::optional<std::string> constantKey(const Expr *E, const ASTContext &Ctx) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = throughTemporaries(E);
    const auto *C = dyn_cast<CXXConstructExpr>(E);
    if (!C || !fromOneValue(C))
      break;
    E = C->getArg(0);
  }
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (const auto *S = dyn_cast<StringLiteral>(E))
    return "s:" + S->getBytes().str();
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx) &&
      R.Val.isInt())
    return "i:" + llvm::toString(R.Val.getInt(), 10);
  return std::nullopt;
}

/// The key of one element of a list of pairs (`{"loss", 0.0}`).
std::optional<std::string> elementKey(const Expr *E, const ASTContext &Ctx) {
  E = throughTemporaries(E);
  if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() >= 2)
    return constantKey(C->getArg(0), Ctx);
  if (const auto *L = dyn_cast<InitListExpr>(E); L && L->getNumInits() >= 2)
    return constantKey(L->getInit(0), Ctx);
  return std::nullopt;
}

/// Does the list an assignment or initialization gives the map name Key
/// (`{{"loss", 0.0}, {"acc", 0.0}}`)?
bool listNamesKey(const Expr *E, const std::string &Key,
                  const ASTContext &Ctx) {
  for (int Depth = 0; E && Depth < 12; ++Depth) {
    E = throughTemporaries(E);
    if (const auto *L = dyn_cast<InitListExpr>(E))
      return llvm::any_of(L->inits(), [&](const Expr *Init) {
        return elementKey(Init, Ctx) == Key;
      });
    if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(E))
      E = IL->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() >= 1 &&
             isa<CXXStdInitializerListExpr, InitListExpr>(
                 throughTemporaries(C->getArg(0))))
      E = C->getArg(0);
    else
      return false;
  }
  return false;
}

/// The map a subscript indexes: a local variable, a field of a local
/// object, or a field of this object (Object null).
struct Holder {
  const VarDecl *Object = nullptr;
  const FieldDecl *Field = nullptr;
};

std::optional<Holder> holderOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return Holder{V, nullptr};
  const auto *M = dyn_cast<MemberExpr>(E);
  const auto *F = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
  if (!F)
    return std::nullopt;
  const Expr *Base = M->getBase()->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(Base))
    return Holder{nullptr, F};
  if (const auto *DR = dyn_cast<DeclRefExpr>(Base); DR && !M->isArrow())
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return Holder{V, F};
  return std::nullopt;
}

bool isMap(const Expr *E, const Holder &H) {
  std::optional<Holder> Got = holderOf(E);
  return Got && Got->Object == H.Object && Got->Field == H.Field;
}

/// The object whose field the map is (or the map variable itself).
bool isOwner(const Expr *E, const Holder &H) {
  E = E->IgnoreParenImpCasts();
  if (!H.Object)
    return isa<CXXThisExpr>(E);
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  return DR && DR->getDecl() == H.Object;
}

/// Methods that read a map or only add to it.
bool keepsKeys(const CXXMethodDecl *MD) {
  if (!MD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(MD->getName())
      .Cases("at", "find", "count", "contains", "begin", "end", "rbegin",
             "rend", true)
      .Cases("lower_bound", "upper_bound", "equal_range", "size", "empty", true)
      .Cases("emplace", "emplace_hint", "try_emplace", "insert",
             "insert_or_assign", true)
      .Default(false);
}

/// Does statement S (a statement of a block, run whenever the block is)
/// put Key in the map?
bool putsKey(const Stmt *S, const Holder &H, const std::string &Key,
             const ASTContext &Ctx) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (H.Field || !DS->isSingleDecl() || DS->getSingleDecl() != H.Object)
      return false;
    return H.Object->getInit() && listNamesKey(H.Object->getInit(), Key, Ctx);
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return false;
  E = throughTemporaries(E);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getIdentifier() || MC->getNumArgs() < 1 ||
        !isMap(MC->getImplicitObjectArgument(), H))
      return false;
    StringRef Name = MD->getName();
    if (Name == "emplace" || Name == "try_emplace" ||
        Name == "insert_or_assign")
      return constantKey(MC->getArg(0), Ctx) == Key;
    return Name == "insert" && elementKey(MC->getArg(0), Ctx) == Key;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->isAssignmentOp() && OC->getNumArgs() == 2) {
    if (OC->getOperator() == OO_Equal && isMap(OC->getArg(0), H))
      return listNamesKey(OC->getArg(1), Key, Ctx);
    E = OC->getArg(0);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && BO->isAssignmentOp()) {
    E = BO->getLHS();
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->isIncrementDecrementOp()) {
    E = UO->getSubExpr();
  }
  const auto *Sub = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParenImpCasts());
  return Sub && Sub->getOperator() == OO_Subscript && Sub->getNumArgs() == 2 &&
         isMap(Sub->getArg(0), H) && constantKey(Sub->getArg(1), Ctx) == Key;
}

/// Is Arg, argument I of Call, handed to a parameter that may change it?
bool handedToChange(const CallExpr *Call, unsigned I) {
  const FunctionDecl *FD = Call->getDirectCallee();
  unsigned Offset =
      isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(FD);
  if (Offset && I == 0)
    return false; // The object of a member operator: its own checks.
  if (!FD || I - Offset >= FD->getNumParams())
    return !FD || !FD->isVariadic();
  QualType PT = FD->getParamDecl(I - Offset)->getType();
  return PT->isPointerType() || (PT->isReferenceType() &&
                                 !PT.getNonReferenceType().isConstQualified());
}

/// May running S remove a key from the map (or replace the map)?
bool mayRemoveKeys(const Stmt *S, const Holder &H, const std::string &Key,
                   const ASTContext &Ctx) {
  if (!S)
    return false;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
      OC && OC->isAssignmentOp() && OC->getNumArgs() == 2) {
    if (isMap(OC->getArg(0), H) && !(OC->getOperator() == OO_Equal &&
                                     listNamesKey(OC->getArg(1), Key, Ctx)))
      return true;
    if (H.Field && isOwner(OC->getArg(0), H))
      return true; // `stats = {}` resets the map with the object.
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (MD && Obj && !MD->isConst() &&
        ((isMap(Obj, H) && !keepsKeys(MD)) || (H.Field && isOwner(Obj, H))))
      return true;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *A = Call->getArg(I);
      if ((isMap(A, H) || isOwner(A, H)) && handedToChange(Call, I))
        return true;
    }
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->getOpcode() == UO_AddrOf &&
      (isMap(U->getSubExpr(), H) || isOwner(U->getSubExpr(), H)))
    return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D);
          V && V->getInit() &&
          (V->getType()->isPointerType() ||
           (V->getType()->isReferenceType() &&
            !V->getType().getNonReferenceType().isConstQualified())) &&
          (isMap(V->getInit(), H) || isOwner(V->getInit(), H)))
        return true;
  // A range-for's own reference to the map hands out its elements only.
  if (const auto *For = dyn_cast<CXXForRangeStmt>(S))
    return mayRemoveKeys(For->getInit(), H, Key, Ctx) ||
           mayRemoveKeys(For->getRangeInit(), H, Key, Ctx) ||
           mayRemoveKeys(For->getLoopVarStmt(), H, Key, Ctx) ||
           mayRemoveKeys(For->getBody(), H, Key, Ctx);
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return mayRemoveKeys(C, H, Key, Ctx);
  });
}

/// Can control enter Block other than at its first statement?
bool hasLabels(const CompoundStmt *Block) {
  return llvm::any_of(Block->body(), [](const Stmt *S) {
    return isa<SwitchCase, LabelStmt>(S);
  });
}

} // namespace

bool keyAlreadyPresent(const CXXOperatorCallExpr *Subscript,
                       const ParentMap &Parents, const ASTContext &Ctx) {
  if (!Subscript || Subscript->getOperator() != OO_Subscript ||
      Subscript->getNumArgs() != 2)
    return false;
  std::optional<Holder> H = holderOf(Subscript->getArg(0));
  // A local object (nothing else can reach it unseen) or this object's.
  if (!H || (H->Object && (!H->Object->hasLocalStorage() ||
                           H->Object->getType()->isReferenceType())))
    return false;
  std::optional<std::string> Key = constantKey(Subscript->getArg(1), Ctx);
  if (!Key)
    return false;
  const Stmt *Cur = Subscript;
  for (int Depth = 0; Depth < 64; ++Depth) {
    const Stmt *Up = Parents.getParent(Cur);
    if (!Up || isa<LambdaExpr>(Up))
      return false;
    if (const auto *Block = dyn_cast<CompoundStmt>(Up);
        Block && !hasLabels(Block)) {
      auto Body = Block->body();
      auto At = llvm::find(Body, Cur);
      if (At == Body.end())
        return false; // Cur is not one of its statements: not structured.
      for (auto It = At; It != Body.begin();) {
        --It;
        if (!putsKey(*It, *H, *Key, Ctx))
          continue;
        return std::none_of(It + 1, At + 1, [&](const Stmt *S) {
          return mayRemoveKeys(S, *H, *Key, Ctx);
        });
      }
    }
    Cur = Up;
  }
  return false;
}

} // namespace distlint
