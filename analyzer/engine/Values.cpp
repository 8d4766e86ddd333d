//===- Values.cpp ---------------------------------------------------------===//
#include "Values.h"
#include "EngineCache.h"
#include "engine/ast/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/Builtins.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

using namespace clang;

namespace distlint {

namespace {
/// Variables a region assigns by name (`x = ...`, `x += ...`, `++x`): one
/// walk of the region answers those without the mutation analyzer, whose
/// matchers cost a pass over the region per variable asked.
llvm::DenseSet<const VarDecl *> assignedByName(const Stmt *Region) {
  llvm::DenseSet<const VarDecl *> Out;
  auto Note = [&Out](const Expr *Target) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Out.insert(VD);
  };
  llvm::SmallVector<const Stmt *, 64> Work{Region};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      Note(BO->getLHS());
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementDecrementOp())
      Note(UO->getSubExpr());
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Out;
}

/// Variables a region refers to other than by reading their value (every
/// reference to the rest is the operand of an lvalue-to-rvalue conversion):
/// those cannot change there, and the mutation analyzer, whose matchers cost
/// a pass over the region per reference, need not be asked about them.
llvm::DenseSet<const VarDecl *> notOnlyRead(const Stmt *Region) {
  llvm::DenseSet<const DeclRefExpr *> Reads;
  llvm::SmallVector<const DeclRefExpr *, 64> Refs;
  llvm::SmallVector<const Stmt *, 64> Work{Region};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(S);
        IC && IC->getCastKind() == CK_LValueToRValue)
      if (const auto *DR =
              dyn_cast<DeclRefExpr>(IC->getSubExpr()->IgnoreParens()))
        Reads.insert(DR);
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      Refs.push_back(DR);
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  llvm::DenseSet<const VarDecl *> Out;
  for (const DeclRefExpr *DR : Refs)
    if (!Reads.contains(DR))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Out.insert(VD);
  return Out;
}

/// One mutation analyzer per function body, and its answer per variable: it
/// memoizes per expression only, and finding a declaration's references
/// costs a pass of matchers over the region each time it is asked.
struct MutationCache : EngineExtension {
  explicit MutationCache(Engine &) {}
  std::map<const Stmt *, std::unique_ptr<ExprMutationAnalyzer>> ByRegion;
  std::map<const Stmt *, llvm::DenseSet<const VarDecl *>> Assigned;
  std::map<const Stmt *, llvm::DenseSet<const VarDecl *>> NotOnlyRead;
  llvm::DenseMap<std::pair<const Stmt *, const VarDecl *>, bool> Mutated;
  bool onlyRead(const Stmt *Region, const VarDecl *VD) {
    auto [It, New] = NotOnlyRead.try_emplace(Region);
    if (New)
      It->second = notOnlyRead(Region);
    return !It->second.contains(VD);
  }
  ExprMutationAnalyzer &analyzerFor(const Stmt *Region, ASTContext &Ctx) {
    auto &Slot = ByRegion[Region];
    if (!Slot)
      Slot = std::make_unique<ExprMutationAnalyzer>(*Region, Ctx);
    return *Slot;
  }
  bool assigns(const Stmt *Region, const VarDecl *VD) {
    auto [It, New] = Assigned.try_emplace(Region);
    if (New)
      It->second = assignedByName(Region);
    return It->second.contains(VD);
  }
};
} // namespace

bool isWrittenIn(Engine &En, const VarDecl *VD, const Stmt *Region) {
  if (!VD || !Region)
    return false;
  auto &Cache = engineExtension<MutationCache>(En);
  if (Cache.assigns(Region, VD))
    return true;
  if (Cache.onlyRead(Region, VD))
    return false;
  auto [It, New] = Cache.Mutated.try_emplace({Region, VD}, false);
  if (New)
    It->second = Cache.analyzerFor(Region, En.context()).isMutated(VD);
  return It->second;
}

const Expr *soleDefinition(Engine &En, const VarDecl *VD) {
  if (!VD)
    return nullptr;
  const VarDecl *Def = VD->getDefinition();
  if (!Def)
    Def = VD;
  const Expr *Init = Def->getAnyInitializer();
  if (!Init)
    return nullptr;
  if (isa<ParmVarDecl>(Def))
    return nullptr;
  if (!Def->hasLocalStorage()) {
    // Globals: only when they cannot change.
    if (Def->getType().isConstQualified() || Def->isConstexpr())
      return Init;
    return nullptr;
  }
  if (Def->getType().isConstQualified() || Def->isConstexpr())
    return Init;
  const FunctionDecl *FD = owningFunction(Def);
  if (!FD || !FD->getBody())
    return nullptr;
  if (isWrittenIn(En, Def, FD->getBody()))
    return nullptr;
  return Init;
}

std::optional<llvm::APSInt> evaluateInt(Engine &En, const Expr *X) {
  ASTContext &Ctx = En.context();
  for (int Depth = 0; X && Depth < 6; ++Depth) {
    if (X->isValueDependent() || X->isTypeDependent())
      return std::nullopt;
    Expr::EvalResult R;
    // A value int64_t cannot hold (an unsigned 64-bit constant past 2^63)
    // is not one the engine reasons about.
    if (X->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().isRepresentableByInt64()
                 ? std::optional<llvm::APSInt>(R.Val.getInt())
                 : std::nullopt;
    const Expr *S = X->IgnoreParenCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
        X = soleDefinition(En, VD);
        continue;
      }
    return std::nullopt;
  }
  return std::nullopt;
}

bool isConstantValue(Engine &En, const Expr *X) {
  if (!X)
    return false;
  if (isa<CXXDefaultArgExpr>(X))
    return true;
  return evaluateInt(En, X).has_value();
}

std::optional<std::string> evaluateString(Engine &En, const Expr *X) {
  for (int Depth = 0; X && Depth < 8; ++Depth) {
    X = stripValue(X)->IgnoreParenCasts();
    if (const auto *SL = dyn_cast<StringLiteral>(X)) {
      if (SL->getCharByteWidth() != 1)
        return std::nullopt;
      return SL->getString().str();
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD)
        return std::nullopt;
      const Expr *Def = soleDefinition(En, VD);
      if (!Def && !VD->hasLocalStorage() &&
          ((VD->getType()->isPointerType() &&
            VD->getType()->getPointeeType().isConstQualified()) ||
           VD->getType()->isArrayType()))
        // `const char *kName = "..."` or `static char env[] = "..."` at
        // namespace scope: not const, but nothing rebinds it in practice.
        Def = VD->getAnyInitializer();
      X = Def;
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(X)) {
      // std::string("literal") (with an optional defaulted allocator).
      if (CE->getNumArgs() >= 1 &&
          (CE->getNumArgs() == 1 || isa<CXXDefaultArgExpr>(CE->getArg(1)))) {
        X = CE->getArg(0);
        continue;
      }
      return std::nullopt;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(X)) {
      // s.c_str() / s.data(): a no-argument method returning char pointer.
      QualType RT = MC->getType();
      if (MC->getNumArgs() == 0 && RT->isPointerType() &&
          RT->getPointeeType()->isCharType()) {
        X = MC->getImplicitObjectArgument();
        continue;
      }
      return std::nullopt;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X)) {
      if (OC->getOperator() == OO_Plus && OC->getNumArgs() == 2) {
        auto L = evaluateString(En, OC->getArg(0));
        auto R = evaluateString(En, OC->getArg(1));
        if (L && R)
          return *L + *R;
      }
      return std::nullopt;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {
/// std::chrono::duration<Rep, std::ratio<N, D>>: the ratio N/D (seconds
/// per tick), recognized by shape: a class template specialization whose
/// second argument is a class template specialization of two integers.
std::optional<double> secondsPerTick(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() != 2)
    return std::nullopt;
  const TemplateArgument &PeriodArg = Spec->getTemplateArgs()[1];
  if (PeriodArg.getKind() != TemplateArgument::Type)
    return std::nullopt;
  const auto *Ratio = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      PeriodArg.getAsType()->getAsCXXRecordDecl());
  if (!Ratio || Ratio->getTemplateArgs().size() != 2)
    return std::nullopt;
  const TemplateArgument &Num = Ratio->getTemplateArgs()[0];
  const TemplateArgument &Den = Ratio->getTemplateArgs()[1];
  if (Num.getKind() != TemplateArgument::Integral ||
      Den.getKind() != TemplateArgument::Integral)
    return std::nullopt;
  double D = Den.getAsIntegral().getSExtValue();
  if (D == 0)
    return std::nullopt;
  return double(Num.getAsIntegral().getSExtValue()) / D;
}

std::optional<double> tickCount(const APValue &V) {
  const APValue *Field = &V;
  if (V.isStruct()) {
    if (V.getStructNumFields() != 1 || V.getStructNumBases() != 0)
      return std::nullopt;
    Field = &V.getStructField(0);
  }
  if (Field->isInt())
    return double(Field->getInt().getSExtValue());
  if (Field->isFloat())
    return Field->getFloat().convertToDouble();
  return std::nullopt;
}
} // namespace

std::optional<double> evaluateDurationMs(Engine &En, const Expr *X) {
  ASTContext &Ctx = En.context();
  for (int Depth = 0; X && Depth < 8; ++Depth) {
    if (X->isValueDependent() || X->isTypeDependent())
      return std::nullopt;
    std::optional<double> Period = secondsPerTick(X->getType());
    if (!Period)
      return std::nullopt;
    Expr::EvalResult R;
    if (X->EvaluateAsRValue(R, Ctx) && !R.HasSideEffects)
      if (auto Ticks = tickCount(R.Val))
        return *Ticks * *Period * 1000.0;
    const Expr *S = stripValue(X);
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
        X = soleDefinition(En, VD);
        continue;
      }
      return std::nullopt;
    }
    // A conversion between duration types keeps the time it denotes.
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
        CE && CE->getNumArgs() == 1 && secondsPerTick(CE->getArg(0)->getType())) {
      X = CE->getArg(0);
      continue;
    }
    if (S != X && secondsPerTick(S->getType())) {
      X = S;
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace distlint
