//===- TimeoutFixes.cpp ---------------------------------------------------===//
#include "fixes/TimeoutFixes.h"
#include "fixes/FixText.h"

#include "api/ApiTable.h"
#include "engine/Engine.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace distlint::fixes {

namespace {
/// The record V's members are reached in: the pointee of a pointer or of a
/// smart pointer's operator->, else V's own class.
const CXXRecordDecl *accessedRecord(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return T->getPointeeType()->getAsCXXRecordDecl();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Arrow)
      return M->getReturnType()->getPointeeType()->getAsCXXRecordDecl();
  return RD;
}

const FieldDecl *timeoutField(Engine &E, const CXXRecordDecl *RD, int Depth) {
  if (!RD || !RD->hasDefinition() || Depth > 4)
    return nullptr;
  for (const FieldDecl *F : RD->fields())
    if (E.api().findMember(F, api::Role::TimeoutKnob))
      return F;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const FieldDecl *F =
            timeoutField(E, B.getType()->getAsCXXRecordDecl(), Depth + 1))
      return F;
  return nullptr;
}

/// std::chrono::duration<Rep, ratio<Num, Den>> that std::chrono::minutes
/// converts to implicitly: 60 s is a whole number of its ticks (or Rep is
/// floating point).
bool acceptsMinutes(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getQualifiedNameAsString().find("chrono::duration") ==
                   std::string::npos)
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 2 || Args[0].getKind() != TemplateArgument::Type ||
      Args[1].getKind() != TemplateArgument::Type)
    return false;
  if (Args[0].getAsType()->isFloatingType())
    return true;
  const auto *Ratio = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Args[1].getAsType()->getAsCXXRecordDecl());
  if (!Ratio || Ratio->getTemplateArgs().size() < 2 ||
      Ratio->getTemplateArgs()[0].getKind() != TemplateArgument::Integral ||
      Ratio->getTemplateArgs()[1].getKind() != TemplateArgument::Integral)
    return false;
  int64_t Num = Ratio->getTemplateArgs()[0].getAsIntegral().getExtValue();
  int64_t Den = Ratio->getTemplateArgs()[1].getAsIntegral().getExtValue();
  return Num > 0 && Den > 0 && (60 * Den) % Num == 0;
}
} // namespace

std::vector<FixItHint> setOptionsTimeout(Engine &E, const Expr *Site,
                                         const VarDecl *Options,
                                         const FixOptions &Opts) {
  if (!Site || !Options || !Options->hasLocalStorage() ||
      isa<ParmVarDecl>(Options) && Options->getType()->isReferenceType())
    return {};
  QualType T = Options->getType().getNonReferenceType();
  const CXXRecordDecl *RD = accessedRecord(T);
  const FieldDecl *Field = timeoutField(E, RD, 0);
  if (!Field)
    return {};
  // A const struct cannot be assigned; a const smart pointer's pointee can.
  bool ThroughPointer = RD != T->getAsCXXRecordDecl();
  if (!ThroughPointer && T.isConstQualified())
    return {};
  if (!acceptsMinutes(Field->getType()))
    return {};
  ASTContext &Ctx = E.context();
  const Stmt *S = statementInBlock(Ctx, Site, nullptr);
  if (!S)
    return {};
  std::optional<FixItHint> Assign = insertLineBefore(
      Ctx, S,
      memberAccess(Options) + Field->getNameAsString() + " = " +
          Opts.MissingTimeoutDefault + ";");
  if (!Assign)
    return {};
  std::vector<FixItHint> Out{*Assign};
  if (llvm::StringRef(Opts.MissingTimeoutDefault).contains("std::chrono"))
    for (FixItHint &H : includeOnce(Ctx, Site->getBeginLoc(), "chrono"))
      Out.push_back(H);
  return Out;
}

std::vector<FixItHint> replaceTimeoutValue(Engine &E, const Expr *Value,
                                           const FixOptions &Opts) {
  if (!Value)
    return {};
  // The expression as written: implicit conversions around it stay.
  const Expr *Written = Value->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Written);
      Construct && Construct->getNumArgs() == 1 &&
      !isa<CXXTemporaryObjectExpr>(Construct) &&
      !Construct->getParenOrBraceRange().isValid())
    Written = Construct->getArg(0)->IgnoreImplicit();
  if (!acceptsMinutes(Value->getType()))
    return {};
  ASTContext &Ctx = E.context();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Written->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  if (R.isInvalid())
    return {};
  std::vector<FixItHint> Out{
      FixItHint::CreateReplacement(R, Opts.MissingTimeoutDefault)};
  if (llvm::StringRef(Opts.MissingTimeoutDefault).contains("std::chrono"))
    for (FixItHint &H : includeOnce(Ctx, Value->getBeginLoc(), "chrono"))
      Out.push_back(H);
  return Out;
}

} // namespace distlint::fixes
