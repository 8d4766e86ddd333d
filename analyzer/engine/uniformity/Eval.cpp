//===- Eval.cpp - Abstract value of an expression
//---------------------------===//
#include "engine/Values.h"
#include "engine/ast/RecordParts.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <functional>

using namespace clang;

namespace distlint {

using api::Role;

uint64_t UniformityAnalysis::listShapeKey(const Expr *List, const VarState &S) {
  const Expr *X = strip(List);
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(X))
    X = strip(SIL->getSubExpr());
  const auto *ILE = dyn_cast<InitListExpr>(X);
  if (!ILE || ILE->getNumInits() == 0)
    return 0;
  // One known shape N times, or known shapes in this order (`{randn({4, 8}),
  // randn({8})}` on one arm, `{zeros({4, 8}), zeros({8})}` on the other).
  uint64_t Key = 0, Ordered = 14695981039346656037ull;
  bool Same = true;
  for (const Expr *Init : ILE->inits()) {
    uint64_t K = eval(Init, S).ShapeKey;
    if (!K)
      return 0;
    Same = Same && (!Key || K == Key);
    Key = K;
    Ordered = (Ordered ^ K) * 1099511628211ull;
  }
  uint64_t Out = Same ? Key : Ordered;
  Out = (Out ^ (uint64_t(ILE->getNumInits()) * 0x9e3779b97f4a7c15ull)) *
        1099511628211ull;
  return Out ? Out : 1;
}

Taint UniformityAnalysis::varTaint(const VarDecl *VD, const VarState &S) {
  auto It = S.find(VD);
  if (It != S.end()) {
    // The name of the value a variable holds is for the merge of paths
    // only: a read (of it, or of one of its fields) is another value.
    Taint T = It->second;
    T.ValueKey = 0;
    return T;
  }
  if (!VD->hasLocalStorage() || VD->isStaticLocal()) {
    if (const Taint *G = P.Tu.globalVary(VD)) {
      Taint T = *G;
      T.IsRank = P.Tu.globalIsRank(VD);
      return T;
    }
    if (VD->isConstexpr() || VD->getType().isConstQualified())
      if (const Expr *Init = VD->getInit())
        if (auto V = Init->getIntegerConstantExpr(E.context());
            V && V->isRepresentableByInt64())
          return Taint::constant(V->getExtValue());
    return {};
  }
  if (BoundArgs)
    if (const auto *PD = dyn_cast<ParmVarDecl>(VD))
      if (owningFunction(PD) == FD &&
          PD->getFunctionScopeIndex() < BoundArgs->size())
        return (*BoundArgs)[PD->getFunctionScopeIndex()];
  const FunctionDecl *Owner = owningFunction(VD);
  if (Owner && Owner != FD) {
    // Captured by a lambda: the variable's taint anywhere in its function,
    // and, like an argument, what it holds where the lambda is called (the
    // owner may still be under analysis when the lambda is).
    Taint T;
    if (ResidentResult OR = P.resident(Owner)) {
      auto A = OR.body().AllPoints.find(VD);
      if (A != OR.body().AllPoints.end()) {
        T = A->second;
        T.Params = T.ShapeParams = 0;
      }
    }
    T.Params |= lambdaCaptureBit(FD, VD);
    return T;
  }
  return P.initialTaint(VD, FD);
}

/// A field whose every write the TU facts record, those of each
/// construction included (noteParamFieldWrites), in a project class built by
/// its constructors: what one object holds there is among those facts, a
/// member object's too (what the constructions pass it, what the methods
/// assign, store or add to it). Not what a braced list gives an aggregate
/// (`return {sizes[rank], 128};`).
bool UniformityAnalysis::factsPerField(const FieldDecl *F) {
  if (!F || !isTaughtDecl(E, F))
    return false;
  const auto *RD = dyn_cast<CXXRecordDecl>(F->getParent());
  return RD && !RD->isAggregate();
}

/// A braced list of numbers handed to a constructor (a std::initializer_list
/// of arithmetic values): its length is the list's, whatever the values.
static bool listOfNumbers(const Expr *A) {
  const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(strip(A));
  if (!SIL)
    return false;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      SIL->getType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() != 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  QualType T = Spec->getTemplateArgs()[0].getAsType();
  return T->isArithmeticType() || T->isEnumeralType();
}

uint64_t UniformityAnalysis::sequenceLengthKey(const CXXConstructExpr *Ctor,
                                               const VarState &S) {
  const CXXConstructorDecl *C = Ctor->getConstructor();
  if (C->isCopyOrMoveConstructor())
    return eval(Ctor->getArg(0), S).ShapeKey;
  uint64_t Count = 0;
  if (listOfNumbers(Ctor->getArg(0))) {
    const auto *SIL = cast<CXXStdInitializerListExpr>(strip(Ctor->getArg(0)));
    if (const auto *IL = dyn_cast<InitListExpr>(strip(SIL->getSubExpr())))
      Count = llvm::hash_combine(int64_t(0), int64_t(IL->getNumInits()));
  } else if (C->getNumParams() >= 1 &&
             C->getParamDecl(0)->getType()->isIntegerType()) {
    // `vector(n, v)`: as long as n says; two vectors made from the same
    // named value (`cfg.dim`) have one length.
    Taint N = eval(Ctor->getArg(0), S);
    if (N.depends() || N.PendingVary || N.PendingParams)
      return 0;
    Count = N.singleValue()
                ? uint64_t(llvm::hash_combine(N.Range->Lo.W, N.Range->Lo.C))
                : valueKeyOf(Ctor->getArg(0), N, E.context());
  }
  return Count ? llvm::hash_combine(llvm::StringRef("length"), Count) | 1 : 0;
}

/// Is parameter I of constructor C the value every element starts with: a
/// container's `value_type` after the count (`vector(size_type n, const
/// value_type &v)`, `basic_string(size_type n, CharT c)`; never the first
/// parameter, which is the count even in `vector<size_t>`)?
static bool isElementValueParam(const CXXConstructorDecl *C, unsigned I) {
  if (I == 0 || I >= C->getNumParams())
    return false;
  const TypedefNameDecl *Value = memberTypedef(C->getParent(), "value_type");
  return Value &&
         C->getASTContext().hasSameType(
             C->getParamDecl(I)->getType().getNonReferenceType().getUnqualifiedType(),
             Value->getUnderlyingType());
}

bool UniformityAnalysis::agreedByCollectives(const Expr *X, const Taint &T) {
  if (T.Vary || T.Params || !T.UniformContent)
    return false;
  const auto *Call = dyn_cast<CallExpr>(X->IgnoreParenImpCasts());
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(X->IgnoreParenImpCasts());
      Ctor && Ctor->getNumArgs() == 1)
    Call = dyn_cast<CallExpr>(Ctor->getArg(0)->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Call ? E.resolveCallee(Call) : nullptr;
  if (!Callee || !Callee->hasBody() || !isTaughtDecl(E, Callee))
    return false;
  // Read from the AST (a helper or its helpers call a collective API):
  // asking the callee's collective summary here would start analyses in
  // the middle of this one.
  std::function<bool(const Stmt *, int)> Issues = [&](const Stmt *S,
                                                      int Depth) -> bool {
    if (!S)
      return false;
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = E.resolveCallee(C)) {
        if (E.api().find(F, Role::Collective))
          return true;
        const FunctionDecl *D = F->getDefinition();
        if (D && Depth < 2 && isTaughtDecl(E, D) &&
            Issues(D->getBody(), Depth + 1))
          return true;
      }
    for (const Stmt *Child : S->children())
      if (Issues(Child, Depth))
        return true;
    return false;
  };
  const FunctionDecl *Def = Callee->getDefinition();
  return Issues((Def ? Def : Callee)->getBody(), 0);
}

Taint UniformityAnalysis::evalCompare(BinaryOperatorKind Op, const Taint &L,
                                      const Taint &Rt) {
  Taint T = L;
  T.join(Rt);
  T.UniformContent = false;
  if (L.Range && Rt.Range) {
    // Decide the comparison for every rank and every world size >= 1.
    auto Lt = [&](const IntRange &A, const IntRange &B) {
      return alwaysNegative(sub(A.Hi, B.Lo));
    };
    auto Le = [&](const IntRange &A, const IntRange &B) {
      LinearBound D = sub(A.Hi, B.Lo);
      return D.W <= 0 && D.W + D.C <= 0;
    };
    const IntRange &A = *L.Range, &B = *Rt.Range;
    std::optional<bool> Known;
    switch (Op) {
    case BO_LT:
      Known = Lt(A, B)   ? std::optional<bool>(true)
              : Le(B, A) ? std::optional<bool>(false)
                         : std::nullopt;
      break;
    case BO_LE:
      Known = Le(A, B)   ? std::optional<bool>(true)
              : Lt(B, A) ? std::optional<bool>(false)
                         : std::nullopt;
      break;
    case BO_GT:
      Known = Lt(B, A)   ? std::optional<bool>(true)
              : Le(A, B) ? std::optional<bool>(false)
                         : std::nullopt;
      break;
    case BO_GE:
      Known = Le(B, A)   ? std::optional<bool>(true)
              : Lt(A, B) ? std::optional<bool>(false)
                         : std::nullopt;
      break;
    case BO_EQ:
    case BO_NE:
      if (Lt(A, B) || Lt(B, A))
        Known = Op == BO_NE;
      else if (A.Lo == A.Hi && B.Lo == B.Hi && A.Lo == B.Lo)
        Known = Op == BO_EQ;
      break;
    default:
      break;
    }
    if (Known) {
      Taint C = Taint::constant(*Known ? 1 : 0);
      C.Params = T.Params & 0; // Decided regardless of its inputs.
      return C;
    }
  }
  T.Range = IntRange{{0, 0}, {0, 1}};
  return T;
}

/// A constexpr call the compiler folds to an integer (`g.size()` of a
/// std::array: its length is in its type): the same number on every rank,
/// whatever the object holds.
std::optional<int64_t> UniformityAnalysis::foldedConstantCall(const Expr *X) {
  const auto *Call = dyn_cast<CallExpr>(X);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->isConstexpr() || X->isValueDependent() ||
      !X->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!X->EvaluateAsInt(R, E.context(), Expr::SE_NoSideEffects) ||
      !R.Val.getInt().isRepresentableByInt64())
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

std::optional<IntRange> steppedRange(std::optional<IntRange> R, QualType Ty,
                                     int Step) {
  if (!R || !Ty->isIntegerType())
    return std::nullopt;
  constexpr int64_t Limit = int64_t(1) << 62;
  for (const LinearBound *B : {&R->Lo, &R->Hi})
    if (B->C > Limit || B->C < -Limit)
      return std::nullopt;
  // An unsigned value stays one: a bound that could go below zero is lost.
  if (Ty->isUnsignedIntegerType() && !(R->Lo.W == 0 && R->Lo.C + Step >= 0))
    return std::nullopt;
  R->Lo.C += Step;
  R->Hi.C += Step;
  return R;
}

Taint UniformityAnalysis::eval(const Expr *X, const VarState &S) {
  Taint T = evalExpr(X, S);
  // Only a sequence or a tensor (or a holder of those) has elements apart
  // from its shape: an element read out of it (`buf[0]`) or a pointer into
  // it depends on them whole.
  if (T.ElementParams && X && !holdsElements(X->getType()))
    T.ElementParams = 0;
  if (inOneRankWorld(S))
    agreeInOneRankWorld(T);
  return T;
}

Taint UniformityAnalysis::evalExpr(const Expr *X, const VarState &S) {
  if (!X)
    return {};
  X = X->IgnoreParens();
  // Temporaries and their cleanups hold the value they wrap (its shape
  // and value keys included).
  if (isa<MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExprWithCleanups>(X))
    return eval(strip(X), S);
  if (const auto *Cast = dyn_cast<CastExpr>(X)) {
    Taint T = eval(Cast->getSubExpr(), S);
    if (Cast->getCastKind() == CK_PointerToBoolean && T.NonNull)
      return Taint::constant(1);
    if (Cast->getCastKind() == CK_PointerToBoolean)
      T = T.pointerValue();
    if (Cast->getCastKind() == CK_IntegralToBoolean ||
        Cast->getCastKind() == CK_PointerToBoolean) {
      T.Range.reset();
      T.IsRank = false;
      T.RootKey = 0; // A truth value, not the value sent.
      T.RootRank = -1;
    }
    return T;
  }
  if (const auto *IL = dyn_cast<IntegerLiteral>(X))
    return Taint::constant(IL->getValue().getSExtValue());
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(X))
    return Taint::constant(BL->getValue());
  if (const auto *CL = dyn_cast<CharacterLiteral>(X))
    return Taint::constant(CL->getValue());
  if (const auto *SL = dyn_cast<StringLiteral>(X)) {
    // The name of a rank environment variable carries the rank to whatever
    // reads the environment with it (getenv(name) in a helper).
    if (SL->getCharByteWidth() == 1 &&
        api::envVariable(SL->getString(), Role::RankSource)) {
      Taint T = Taint::varying(VaryKind::Rank, SL->getBeginLoc(),
                               "rank (environment variable " +
                                   SL->getString().str() + ")");
      T.LauncherVar = LauncherVariable::Rank;
      return T;
    }
    Taint T;
    T.UniformContent = true;
    if (SL->getCharByteWidth() == 1 &&
        api::envVariable(SL->getString(), Role::WorldSizeSource))
      T.LauncherVar = LauncherVariable::WorldSize;
    return T;
  }
  if (isa<CXXThisExpr>(X) && ObjectVaries) {
    Taint T;
    T.Vary = true;
    T.Origin = *ObjectVaries;
    T.PointeeOnly = true; // The object, not the pointer.
    return T;
  }
  if (const auto *L = dyn_cast<LambdaExpr>(X))
    return closureTaint(L, S);
  if (auto Folded = foldedConstantCall(X))
    return Taint::constant(*Folded);
  if (isa<FloatingLiteral, CXXNullPtrLiteralExpr, GNUNullExpr, CXXThisExpr,
          UnaryExprOrTypeTraitExpr, TypeTraitExpr, CXXDefaultArgExpr>(X)) {
    Taint T;
    T.UniformContent = true;
    return T;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      return varTaint(VD, S);
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
      return Taint::constant(EC->getInitVal().getSExtValue());
    // `auto [x, y] = shard(rank)`: a name for a part of the hidden object
    // (its field, its element, or what std::get reads from it).
    if (const auto *B = dyn_cast<BindingDecl>(DR->getDecl())) {
      // A pair's part: what this path knows of that field of the object.
      if (const auto *DD =
              dyn_cast_or_null<DecompositionDecl>(B->getDecomposedDecl()))
        if (const FieldDecl *F = pairBindingField(DD, B)) {
          if (auto Known = S.find(StateKey(DD, F)); Known != S.end())
            return Known->second;
        }
      if (const VarDecl *Holding = B->getHoldingVar())
        return Holding->getInit() ? eval(Holding->getInit(), S) : Taint();
      if (const Expr *Part = B->getBinding())
        return eval(Part, S);
    }
    return {};
  }
  if (const auto *M = dyn_cast<MemberExpr>(X))
    return evalMember(M, S);
  if (const auto *U = dyn_cast<UnaryOperator>(X)) {
    Taint T = eval(U->getSubExpr(), S);
    if (U->getOpcode() != UO_Plus)
      T.IsRank = false;
    switch (U->getOpcode()) {
    case UO_Minus:
      if (T.Range)
        T.Range = IntRange{{-T.Range->Hi.W, -T.Range->Hi.C},
                           {-T.Range->Lo.W, -T.Range->Lo.C}};
      break;
    case UO_Plus:
      break;
    // The counter's state already holds the stepped value (each
    // sub-expression is its own CFG element, transferred first): a prefix
    // step reads it, a postfix one the value before.
    case UO_PreInc:
    case UO_PreDec:
      T.ValueKey = 0;
      break;
    case UO_PostInc:
    case UO_PostDec:
      T.Range = steppedRange(T.Range, U->getSubExpr()->getType(),
                             U->isIncrementOp() ? -1 : 1);
      T.ValueKey = 0;
      break;
    case UO_AddrOf:
      T = T.addressOf();
      break;
    case UO_Deref:
      T.Range.reset();
      T.PointeeOnly = false;
      // A number read through a pointer is contents; an object keeps the
      // shape it had.
      if (U->getType()->isArithmeticType() || U->getType()->isEnumeralType())
        T.ContentOnly = false;
      break;
    case UO_LNot:
      if (T.Range && T.Range->Lo == T.Range->Hi && T.Range->Lo.W == 0)
        T.Range = IntRange{{0, T.Range->Lo.C == 0}, {0, T.Range->Lo.C == 0}};
      else if (T.Range && (alwaysNegative(sub({0, 0}, T.Range->Lo)) ||
                           alwaysNegative(T.Range->Hi)))
        T.Range = IntRange{{0, 0}, {0, 0}}; // never zero
      else
        T.Range = IntRange{{0, 0}, {0, 1}};
      break;
    default:
      T.Range.reset();
    }
    return T;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(X)) {
    if (B->isAssignmentOp() || B->getOpcode() == BO_Comma)
      return eval(B->getRHS(), S);
    Taint L = eval(B->getLHS(), S), Rt = eval(B->getRHS(), S);
    L.IsRank = Rt.IsRank = false; // A value computed from the rank.
    if (B->isComparisonOp()) {
      if (B->getLHS()->getType()->isPointerType())
        L = L.pointerValue();
      if (B->getRHS()->getType()->isPointerType())
        Rt = Rt.pointerValue();
      return evalCompare(B->getOpcode(), L, Rt);
    }
    Taint T = L;
    T.join(Rt);
    std::optional<IntRange> LR = L.Range, RR = Rt.Range;
    T.Range.reset();
    if (LR && RR) {
      switch (B->getOpcode()) {
      case BO_Add:
        T.Range = IntRange{{LR->Lo.W + RR->Lo.W, LR->Lo.C + RR->Lo.C},
                           {LR->Hi.W + RR->Hi.W, LR->Hi.C + RR->Hi.C}};
        break;
      case BO_Sub:
        T.Range = IntRange{{LR->Lo.W - RR->Hi.W, LR->Lo.C - RR->Hi.C},
                           {LR->Hi.W - RR->Lo.W, LR->Hi.C - RR->Lo.C}};
        break;
      case BO_Rem:
        if (RR->Lo == RR->Hi && RR->Lo.W == 0 && RR->Lo.C > 0 &&
            LR->Lo.W >= 0 && LR->Lo.C >= 0)
          T.Range = IntRange{{0, 0}, {0, RR->Lo.C - 1}};
        break;
      case BO_LAnd:
      case BO_LOr:
        T.Range = IntRange{{0, 0}, {0, 1}};
        break;
      default:
        break;
      }
    }
    if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
      // Decided by one side alone when it is constant.
      auto Const = [](const Taint &V) -> std::optional<bool> {
        if (V.Range && V.Range->Lo == V.Range->Hi && V.Range->Lo.W == 0)
          return V.Range->Lo.C != 0;
        return std::nullopt;
      };
      auto CL = Const(L), CR = Const(Rt);
      bool IsAnd = B->getOpcode() == BO_LAnd;
      if ((CL && *CL != IsAnd) || (CR && *CR != IsAnd))
        return Taint::constant(IsAnd ? 0 : 1);
      if (CL && CR)
        return Taint::constant(IsAnd ? (*CL && *CR) : (*CL || *CR));
      if (CL)
        return Rt; // (true && x) == x
      if (CR)
        return L;
    }
    return T;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(X)) {
    Taint T = eval(C->getCond(), S);
    // A condition decided on every rank picks one arm.
    if (!T.depends() && T.Range && T.Range->Lo == T.Range->Hi &&
        T.Range->Lo.W == 0)
      return eval(T.Range->Lo.C ? C->getTrueExpr() : C->getFalseExpr(), S);
    T.Range.reset();
    Taint A = eval(C->getTrueExpr(), S), B = eval(C->getFalseExpr(), S);
    bool Agreed = agreedByCollectives(C->getTrueExpr(), A) &&
                  agreedByCollectives(C->getFalseExpr(), B);
    A.join(B);
    // `rank == 0 ? publish(argv) : receive()`: each side's value is the
    // result of the collectives its helper issues, which pair up with the
    // other side's (or the branch is reported): every rank gets the same.
    if (!Agreed)
      A.addControl(T);
    return A;
  }
  if (const auto *Call = dyn_cast<CallExpr>(X))
    return evalCall(Call, S);
  if (const auto *New = dyn_cast<CXXNewExpr>(X)) {
    Taint Object;
    Object.UniformContent = true;
    if (const Expr *Init = New->getInitializer())
      Object.join(eval(Init, S));
    if (auto Size = New->getArraySize(); Size && *Size)
      Object.join(eval(*Size, S));
    return Object.addressOf();
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
    Taint Base = eval(AS->getBase(), S);
    Taint T = Base;
    T.join(eval(AS->getIdx(), S));
    T.shapeDiffers();
    T.PointeeOnly = false; // Reads the element, not the pointer.
    T.IsRank = false;
    T.Range.reset();
    // An element of a broadcast's message, read by a constant index: the
    // same value on every member, named by the message.
    if (!T.depends())
      if (uint64_t Name = messageElementName(Base, AS->getIdx(), S))
        T.ValueKey = Name;
    T.MessageKey = 0;
    return T;
  }
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(X)) {
    const CXXRecordDecl *RD = Ctor->getConstructor()->getParent();
    if (E.api().findType(RD, Role::SamplerType)) {
      // Distributed samplers pad shards to equal length: the loader's trip
      // count is uniform (distlint-missing-set-epoch covers the rest).
      Taint T;
      return T;
    }
    Taint T;
    T.UniformContent = true;
    // A communicator built in place (`ProcessGroupGloo pg(store, rank, ...)`):
    // each member's own rank does not make the handles differ (the model's
    // CommInit return transfer says the same of factories).
    const api::ApiEntry *Init =
        E.api().find(Ctor->getConstructor(), Role::CommInit);
    // `std::vector<float> g(n, rank * 0.1f)`: an argument that is the
    // value of every element makes the contents differ, not the length; so
    // do the numbers of a braced list (`{42, 3 + rank}`: two elements).
    Taint Elements;
    Elements.UniformContent = true;
    for (unsigned I = 0; I < Ctor->getNumArgs(); ++I)
      if (!Init || int(I) != Init->Args.Rank)
        (isElementValueParam(Ctor->getConstructor(), I) ||
                 listOfNumbers(Ctor->getArg(I))
             ? Elements
             : T)
            .join(eval(Ctor->getArg(I), S));
    if (Elements.Vary && !T.Vary) {
      T.Vary = true;
      T.Origin = Elements.Origin;
      T.ContentOnly = true;
    }
    T.UniformContent = T.UniformContent && Elements.UniformContent;
    // A copy keeps what reached only the elements of what it copies.
    T.ElementParams |= Elements.Params & ~T.Params;
    T.Params |= Elements.Params;
    if (Ctor->getNumArgs() == 0)
      T.UniformContent = !isTensorType(Ctor->getType());
    T.Range.reset();
    if (isTensorLike(Ctor->getType()) && Ctor->getNumArgs() >= 1) {
      // A copy has the shape of what it copies; a list of tensors of one
      // known shape has that shape, as many times as the list is long.
      if (Ctor->getConstructor()->isCopyOrMoveConstructor())
        T.ShapeKey = eval(Ctor->getArg(0), S).ShapeKey;
      else
        T.ShapeKey = listShapeKey(Ctor->getArg(0), S);
    } else if (isValueSequence(Ctor->getType()) && Ctor->getNumArgs() >= 1) {
      T.ShapeKey = sequenceLengthKey(Ctor, S);
    }
    return T;
  }
  // Everything else: the join of what it is made of.
  Taint T;
  T.UniformContent = true;
  bool Any = false;
  for (const Stmt *Child : X->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child)) {
      T.join(eval(CE, S));
      Any = true;
    }
  if (!Any)
    T.UniformContent = !isTensorType(X->getType());
  T.Range.reset();
  // Its length is written in the source: only the numbers can differ.
  if (T.Vary && listOfNumbers(X)) {
    T.ContentOnly = true;
    T.IsRank = false;
  }
  // A braced list of tensors (`params = {randn({4, 8}), randn({8})}`) has
  // the shapes of its elements.
  if (isa<CXXStdInitializerListExpr, InitListExpr>(X))
    T.ShapeKey = listShapeKey(X, S);
  return T;
}

} // namespace distlint
