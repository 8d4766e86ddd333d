//===- CallModel.h - The analysis at one call, for the API model -*- C++
//-*-===//
//
// Shared by the two halves of a call's transfer: its value (CallResults.cpp)
// and what it writes (Calls.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/ast/AstHelpers.h"
#include "engine/model/ApiModel.h"
#include "engine/uniformity/UniformityAnalysis.h"

namespace distlint {

/// Does a library function take argument I (A) as a buffer to write: a
/// pointer to non-const data (not a handle to an opaque struct)?
bool isWrittenBuffer(const clang::FunctionDecl *Callee, unsigned I,
                     const clang::Expr *A);

/// The analysis at one call, for the API model's transfers
/// (engine/model/ApiModel.h). Effects write into Mutable; return transfers
/// get none.
class UniformityAnalysis::ModelEnvAt final : public model::ModelEnv {
public:
  ModelEnvAt(UniformityAnalysis &U, const clang::CallExpr *Call,
             const clang::FunctionDecl *Callee, const clang::Expr *Receiver,
             llvm::ArrayRef<const clang::Expr *> Args, const VarState &S,
             VarState *Mutable)
      : U(U), Call(Call), Callee(Callee), Receiver(Receiver), Args(Args), S(S),
        Mutable(Mutable) {}
  Taint eval(const clang::Expr *X) override { return U.eval(X, S); }
  void assign(const clang::Expr *LValue, const Taint &T) override {
    if (Mutable)
      U.assignLValue(LValue, T, *Mutable, /*Strong=*/true);
  }
  void markUniform(const clang::Expr *Buffer) override {
    if (Mutable)
      U.markUniform(Buffer, *Mutable);
  }
  uint8_t resultVaryingDims() override {
    return U.resultVaryingDims(Call, Callee, Receiver, Args, S);
  }
  uint64_t resultShapeKey() override {
    return U.resultShapeKey(Call, Callee, Receiver, Args, S);
  }
  void noteSubCommunicator(const clang::Expr *Out) override {
    // Into a field (`&ctx.leaders`): that field, not the whole object.
    if (const clang::FieldDecl *F = accessedField(Out))
      U.P.Tu.noteFieldCommunicator(F, true);
    else if (const clang::VarDecl *VD = baseVar(Out))
      U.P.Tu.noteSubCommunicator(VD);
  }
  void noteOtherCommunicator(const clang::Expr *Out) override {
    if (const clang::FieldDecl *F = accessedField(Out))
      U.P.Tu.noteFieldCommunicator(F, false);
  }
  bool isSelfCommunicator(const clang::Expr *Comm) override {
    return mayExpandMacro(Comm, api::selfCommunicatorName(), U.E.context());
  }
  bool isModuleObject(const clang::Expr *X) override {
    clang::QualType T = X->getType().getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    const auto *RD = T->getAsCXXRecordDecl();
    // `std::shared_ptr<Net>`: the module it owns.
    if (const auto *Spec =
            llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(RD);
        Spec && RD->isInStdNamespace() && Spec->getTemplateArgs().size() &&
        Spec->getTemplateArgs()[0].getKind() == clang::TemplateArgument::Type)
      RD = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
    return RD && U.E.api().findType(RD, api::Role::ModuleType);
  }
  bool isSubCommunicator(const clang::Expr *Comm) override {
    return U.holdsSubCommunicator(Comm);
  }
  void receiveBroadcast(const api::ApiEntry &Row) override {
    if (Mutable)
      U.receiveBroadcast(Call, Row, *Mutable);
  }

private:
  UniformityAnalysis &U;
  const clang::CallExpr *Call;
  const clang::FunctionDecl *Callee;
  const clang::Expr *Receiver;
  llvm::ArrayRef<const clang::Expr *> Args;
  const VarState &S;
  VarState *Mutable;
};

} // namespace distlint
