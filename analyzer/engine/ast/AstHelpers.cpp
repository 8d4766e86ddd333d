//===- AstHelpers.cpp -----------------------------------------------------===//
#include "engine/ast/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace clang;

namespace distlint {

namespace {
bool isMoveOrForward(const CallExpr *Call) {
  if (Call->getNumArgs() != 1)
    return false;
  unsigned Builtin = Call->getBuiltinCallee();
  return Builtin == Builtin::BImove || Builtin == Builtin::BIforward ||
         Builtin == Builtin::BIas_const;
}

/// `operator->` of a class, if it has one (smart pointers, iterators).
const CXXMethodDecl *arrowOperator(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return nullptr;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Arrow)
      return M;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const CXXMethodDecl *M =
            arrowOperator(B.getType()->getAsCXXRecordDecl()))
      return M;
  return nullptr;
}

/// `p.get()`: a no-argument method of a smart pointer returning what its
/// operator-> returns.
bool isSmartPointerGet(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!MD || MC->getNumArgs() != 0 || MD->isOverloadedOperator())
    return false;
  const CXXMethodDecl *Arrow = arrowOperator(MD->getParent());
  return Arrow && Arrow->getReturnType().getCanonicalType() ==
                      MD->getReturnType().getCanonicalType();
}
} // namespace


/// The variable an lvalue / address expression designates: `x`, `&x`,
/// `x[i]`, `*p` (p), `x.f` (x).
const VarDecl *fieldBase(const MemberExpr *M) {
  const auto *DR = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

const VarDecl *localObjectOf(const MemberExpr *M) {
  const VarDecl *Base = M->isArrow() ? nullptr : fieldBase(M);
  return Base && Base->hasLocalStorage() && !Base->getType()->isReferenceType()
             ? Base
             : nullptr;
}

bool everyReturnValue(const FunctionDecl *FD,
                      llvm::function_ref<bool(const Expr *)> Returned) {
  llvm::SmallVector<const Stmt *, 32> Work{FD ? FD->getBody() : nullptr};
  unsigned Returns = 0;
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (!R->getRetValue() || !Returned(R->getRetValue()))
        return false;
      ++Returns;
      continue;
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Returns > 0;
}

const FieldDecl *accessedField(const Expr *E) {
  E = strip(E);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = strip(U->getSubExpr());
  const auto *M = dyn_cast_or_null<MemberExpr>(E);
  return M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
}

const FieldDecl *handleField(const Expr *E) {
  E = strip(E);
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E);
      OC && OC->getNumArgs() == 1 &&
      (OC->getOperator() == OO_Arrow || OC->getOperator() == OO_Star))
    E = OC->getArg(0);
  else if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
           MC && isSmartPointerGet(MC))
    E = MC->getImplicitObjectArgument();
  return accessedField(E);
}

const Expr *storageOwner(const Expr *Target) {
  for (int Depth = 0; Depth < 4; ++Depth) {
    Target = strip(Target);
    if (const auto *U = dyn_cast<UnaryOperator>(Target);
        U && U->getOpcode() == UO_AddrOf)
      Target = U->getSubExpr();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Target);
             MC && MC->getNumArgs() == 0 && MC->getType()->isPointerType())
      Target = MC->getImplicitObjectArgument();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Target);
             OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      Target = OC->getArg(0);
    else
      break;
  }
  return strip(Target);
}

const VarDecl *baseVar(const Expr *E) {
  E = strip(E);
  while (E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DR->getDecl());
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      E = strip(U->getSubExpr());
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      E = strip(A->getBase());
      continue;
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      E = strip(M->getBase());
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      E = strip(MC->getImplicitObjectArgument());
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getNumArgs() >= 1 &&
        (Op->getOperator() == OO_Star || Op->getOperator() == OO_Subscript ||
         Op->getOperator() == OO_Arrow)) {
      E = strip(Op->getArg(0));
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

void collectVarRefs(const Stmt *S,
                    llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      Out.push_back(VD);
  for (const Stmt *C : S->children())
    collectVarRefs(C, Out);
}

void collectBodyCalls(const FunctionDecl *FD,
                      llvm::SmallVectorImpl<const CallExpr *> &Out) {
  llvm::SmallVector<const Stmt *, 32> Work;
  auto PushChildren = [&](auto &&Children) {
    size_t First = Work.size();
    for (const Stmt *Child : Children)
      Work.push_back(Child);
    std::reverse(Work.begin() + First, Work.end()); // Source order.
  };
  Work.push_back(FD->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD)) {
    llvm::SmallVector<const Stmt *, 8> Inits;
    for (const CXXCtorInitializer *I : Ctor->inits())
      Inits.push_back(I->getInit());
    PushChildren(Inits);
  }
  // An explicit stack: bodies can nest deeper than the thread's stack allows.
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (!Cur)
      continue;
    if (const auto *L = dyn_cast<LambdaExpr>(Cur)) {
      llvm::SmallVector<const Stmt *, 4> Inits(L->capture_inits());
      PushChildren(Inits);
      continue;
    }
    if (isa<UnaryExprOrTypeTraitExpr, CXXNoexceptExpr>(Cur))
      continue;
    // An OpenMP region's body sits in a captured statement, whose children
    // are only what it captures.
    if (const auto *CS = dyn_cast<CapturedStmt>(Cur)) {
      Work.push_back(CS->getCapturedStmt());
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(Cur))
      Out.push_back(Call);
    PushChildren(Cur->children());
  }
}

void collectVarDecls(const Stmt *S,
                     llvm::SmallVectorImpl<const VarDecl *> &Out) {
  // An explicit stack: bodies can nest deeper than the thread's stack allows.
  llvm::SmallVector<const Stmt *, 32> Work{S};
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (!Cur)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(Cur))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Out.push_back(V);
    size_t First = Work.size();
    for (const Stmt *Child : Cur->children())
      Work.push_back(Child);
    std::reverse(Work.begin() + First, Work.end()); // Visit in source order.
  }
}

bool isTensorType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    std::string N = RD->getNameAsString();
    return N == "Tensor" || N == "TensorBase";
  }
  return false;
}

/// A tensor or a container of tensors (vector, ArrayRef, optional...).
bool isTensorLike(QualType T) {
  if (isTensorType(T))
    return true;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl())) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    return Args.size() > 0 && Args[0].getKind() == TemplateArgument::Type &&
           isTensorType(Args[0].getAsType());
  }
  return false;
}

const Decl *communicatorDecl(const Expr *E) {
  if (!E)
    return nullptr;
  if (const FieldDecl *F = handleField(E))
    return F;
  return baseVar(E);
}

bool isValueSequence(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && !isTensorLike(T) && memberTypedef(RD, "value_type") &&
         memberTypedef(RD, "size_type") && !memberTypedef(RD, "key_type");
}

const TypedefNameDecl *memberTypedef(const CXXRecordDecl *RD, StringRef Name) {
  if (RD)
    for (const Decl *D : RD->decls())
      if (const auto *TD = dyn_cast<TypedefNameDecl>(D);
          TD && TD->getName() == Name)
        return TD;
  return nullptr;
}

const NamedDecl *lookupQualified(ASTContext &Ctx, StringRef Qualified) {
  // By walking the declarations, not DeclContext::lookup: that needs an
  // IdentifierInfo, and creating one from here allocates in Clang's tables
  // with this binary's inlined allocator (under ASan it poisons memory the
  // library's own allocations then write to).
  llvm::SmallVector<const DeclContext *, 4> Contexts{
      Ctx.getTranslationUnitDecl()};
  while (!Qualified.empty()) {
    auto [Head, Rest] = Qualified.split("::");
    llvm::SmallVector<const DeclContext *, 4> Next;
    const NamedDecl *Found = nullptr;
    for (const DeclContext *DC : Contexts)
      for (const Decl *D : DC->decls()) {
        const auto *ND = dyn_cast<NamedDecl>(D);
        if (!ND || !ND->getIdentifier() || ND->getName() != Head)
          continue;
        if (Rest.empty())
          return ND;
        if (const auto *Inner = dyn_cast<DeclContext>(ND))
          Next.push_back(Inner); // Every block of a namespace.
        Found = ND;
      }
    if (!Found)
      return nullptr;
    Contexts = std::move(Next);
    Qualified = Rest;
  }
  return nullptr;
}

/// An int-array size parameter (IntArrayRef, SymIntArrayRef...).
bool isSizeArrayType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl())) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Spec->getName().contains("ArrayRef") && Args.size() > 0 &&
        Args[0].getKind() == TemplateArgument::Type)
      return Args[0].getAsType()->isIntegerType() ||
             Args[0].getAsType().getAsString().find("SymInt") !=
                 std::string::npos;
  }
  return false;
}

bool isPointerLike(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isPointerType())
    return true;
  return arrowOperator(T->getAsCXXRecordDecl()) != nullptr;
}

namespace {

/// A node both strip() and stripValue() look through: temporaries and
/// full-expression cleanups. Null when E is none of them.
const Expr *throughTemporary(const Expr *E) {
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return M->getSubExpr();
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return B->getSubExpr();
  if (const auto *C = dyn_cast<ExprWithCleanups>(E))
    return C->getSubExpr();
  return nullptr;
}

/// strip()'s own steps: explicit casts and one-argument copies or
/// conversions (the value converted, whatever object holds it).
const Expr *throughConversion(const Expr *E) {
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return F->getSubExpr();
  if (const auto *N = dyn_cast<CXXNamedCastExpr>(E))
    return N->getSubExpr();
  if (const auto *S = dyn_cast<CStyleCastExpr>(E))
    return S->getSubExpr();
  if (const auto *K = dyn_cast<CXXConstructExpr>(E);
      K && K->getNumArgs() == 1 &&
      (K->getConstructor()->isCopyOrMoveConstructor() ||
       K->getConstructor()->isConvertingConstructor(false)))
    return K->getArg(0);
  return nullptr;
}

/// stripValue()'s own steps: what keeps designating the same object.
const Expr *throughSameObject(const Expr *E) {
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E);
      F && isa<CXXConstructExpr>(F->getSubExpr()))
    return F->getSubExpr();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (CE->getNumArgs() >= 1 && Ctor &&
        (Ctor->isCopyOrMoveConstructor() ||
         // Converting copies between smart pointers (intrusive_ptr<D> ->
         // intrusive_ptr<B>) still share the object.
         (isPointerLike(CE->getType()) &&
          isPointerLike(CE->getArg(0)->getType()) &&
          (CE->getNumArgs() == 1 || isa<CXXDefaultArgExpr>(CE->getArg(1))))))
      return CE->getArg(0);
    return nullptr;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && isMoveOrForward(Call))
    return Call->getArg(0);
  return nullptr;
}

/// The one walk behind strip() and stripValue(): parentheses, implicit
/// casts and temporaries, then Step's own nodes, until nothing is left.
const Expr *lookThrough(const Expr *E, const Expr *(*Step)(const Expr *)) {
  for (int Depth = 0; E && Depth < 32; ++Depth) {
    E = E->IgnoreParenImpCasts();
    const Expr *Next = throughTemporary(E);
    if (!Next)
      Next = Step(E);
    if (!Next)
      return E;
    E = Next;
  }
  return E;
}

} // namespace

const Expr *strip(const Expr *E) { return lookThrough(E, throughConversion); }

const Expr *stripValue(const Expr *E) {
  return lookThrough(E, throughSameObject);
}

const VarDecl *designatedVar(const Expr *E) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = stripValue(E);
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DR->getDecl());
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_Deref && U->getOpcode() != UO_AddrOf)
        return nullptr;
      E = U->getSubExpr();
      continue;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      OverloadedOperatorKind K = OC->getOperator();
      if ((K == OO_Star || K == OO_Arrow) && OC->getNumArgs() == 1) {
        E = OC->getArg(0);
        continue;
      }
      return nullptr;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      if (!isSmartPointerGet(MC))
        return nullptr;
      E = MC->getImplicitObjectArgument();
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool isLoopStmt(const Stmt *S) {
  return S && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

Decision decisionOf(const Stmt *S) {
  Decision D;
  if (!S)
    return D;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    D.Cond = If->getCond();
    D.DeclaresVariable = If->getConditionVariable();
  } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
    D.Cond = W->getCond();
    D.DeclaresVariable = W->getConditionVariable();
  } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    D.Cond = Sw->getCond();
    D.DeclaresVariable = Sw->getConditionVariable();
  } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
    D.Cond = Do->getCond();
  } else if (const auto *F = dyn_cast<ForStmt>(S)) {
    D.Cond = F->getCond();
  } else if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
    D.Cond = R->getRangeInit();
    D.IsRangeFor = true;
  } else if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
    D.Cond = C->getCond();
  } else if (const auto *B = dyn_cast<BinaryOperator>(S);
             B && B->isLogicalOp()) {
    D.Cond = B->getLHS();
  }
  return D;
}

namespace {
const CXXRecordDecl *closureOf(const FunctionDecl *FD) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  return MD && MD->getParent()->isLambda() ? MD->getParent() : nullptr;
}
} // namespace

uint64_t lambdaCaptureBit(const FunctionDecl *FD, const VarDecl *VD) {
  const CXXRecordDecl *Closure = closureOf(FD);
  if (!Closure || !VD)
    return 0;
  unsigned Index = FD->getNumParams();
  for (const LambdaCapture &C : Closure->captures()) {
    if (Index >= 64)
      return 0;
    if (C.capturesVariable() && C.getCapturedVar() == VD)
      return uint64_t(1) << Index;
    ++Index;
  }
  return 0;
}

const VarDecl *lambdaCaptureAt(const FunctionDecl *FD, unsigned Index) {
  const CXXRecordDecl *Closure = closureOf(FD);
  if (!Closure || Index < FD->getNumParams())
    return nullptr;
  unsigned At = FD->getNumParams();
  for (const LambdaCapture &C : Closure->captures()) {
    if (At++ == Index)
      return C.capturesVariable() ? dyn_cast<VarDecl>(C.getCapturedVar())
                                  : nullptr;
  }
  return nullptr;
}

const FunctionDecl *owningFunction(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  while (DC && !isa<FunctionDecl>(DC))
    DC = DC->getParent();
  return dyn_cast_or_null<FunctionDecl>(DC);
}

std::string sourceText(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return "";
  E = strip(E);
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = SM.getExpansionRange(E->getSourceRange());
  std::string Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
  std::string Out;
  for (char C : Text)
    if (!isspace(static_cast<unsigned char>(C)))
      Out += C;
  llvm::StringRef R(Out);
  R.consume_front("this->");
  R.consume_front("*");
  return R.str();
}

bool mayExpandMacro(const clang::Expr *E, llvm::StringRef Macro,
                    clang::ASTContext &Ctx) {
  if (!E)
    return false;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (clang::SourceLocation Loc = E->getBeginLoc(); Loc.isMacroID();
       Loc = SM.getImmediateMacroCallerLoc(Loc))
    if (clang::Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts()) ==
        Macro)
      return true;
  for (const clang::Stmt *Child : E->children())
    if (const auto *X = llvm::dyn_cast_or_null<clang::Expr>(Child))
      if (mayExpandMacro(X, Macro, Ctx))
        return true;
  return false;
}

/// The same expression: one structure over the same declarations and
/// constants.
bool sameExpr(const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (A->getStmtClass() != B->getStmtClass())
    return false;
  if (const auto *DA = dyn_cast<DeclRefExpr>(A))
    return DA->getDecl() == cast<DeclRefExpr>(B)->getDecl();
  if (const auto *IA = dyn_cast<IntegerLiteral>(A))
    return IA->getValue() == cast<IntegerLiteral>(B)->getValue();
  if (const auto *MA = dyn_cast<MemberExpr>(A))
    return MA->getMemberDecl() == cast<MemberExpr>(B)->getMemberDecl() &&
           sameExpr(MA->getBase(), cast<MemberExpr>(B)->getBase());
  if (const auto *UA = dyn_cast<UnaryOperator>(A))
    return UA->getOpcode() == cast<UnaryOperator>(B)->getOpcode() &&
           !UA->isIncrementDecrementOp() &&
           sameExpr(UA->getSubExpr(), cast<UnaryOperator>(B)->getSubExpr());
  if (const auto *BA = dyn_cast<BinaryOperator>(A)) {
    const auto *BB = cast<BinaryOperator>(B);
    return BA->getOpcode() == BB->getOpcode() && !BA->isAssignmentOp() &&
           sameExpr(BA->getLHS(), BB->getLHS()) &&
           sameExpr(BA->getRHS(), BB->getRHS());
  }
  return false;
}

/// Is Bound - Start the same on every rank, whatever each is: `first +
/// n` against `first`, `(r + 1) * n` against `r * n`, with n uniform.
bool uniformDistance(const Expr *Bound, const Expr *Start,
                     llvm::function_ref<bool(const Expr *)> Uniform) {
  const auto *B = dyn_cast<BinaryOperator>(Bound->IgnoreParenImpCasts());
  if (!B)
    return false;
  // Start + U, U + Start.
  if (B->getOpcode() == BO_Add &&
      ((sameExpr(B->getLHS(), Start) && Uniform(B->getRHS())) ||
       (sameExpr(B->getRHS(), Start) && Uniform(B->getLHS()))))
    return true;
  // (A + U) * N against A * N (either operand order).
  const auto *S = dyn_cast<BinaryOperator>(Start->IgnoreParenImpCasts());
  if (B->getOpcode() != BO_Mul || !S || S->getOpcode() != BO_Mul)
    return false;
  for (const auto &[Sum, N] : {std::pair{B->getLHS(), B->getRHS()},
                               std::pair{B->getRHS(), B->getLHS()}}) {
    const auto *Add = dyn_cast<BinaryOperator>(Sum->IgnoreParenImpCasts());
    if (!Add || Add->getOpcode() != BO_Add || !Uniform(N))
      continue;
    for (const auto &[A, U] : {std::pair{Add->getLHS(), Add->getRHS()},
                               std::pair{Add->getRHS(), Add->getLHS()}})
      if (Uniform(U) &&
          ((sameExpr(S->getLHS(), A) && sameExpr(S->getRHS(), N)) ||
           (sameExpr(S->getRHS(), A) && sameExpr(S->getLHS(), N))))
        return true;
  }
  return false;
}

} // namespace distlint
