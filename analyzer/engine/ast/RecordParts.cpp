//===- RecordParts.cpp - The parts of a record value ----------------------===//
#include "engine/ast/RecordParts.h"

#include "engine/ast/AstHelpers.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace distlint {

bool holdsElements(QualType T, int Depth) {
  T = T.getNonReferenceType();
  if (isValueSequence(T) || isTensorType(T))
    return true;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || Depth > 2)
    return false;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      Spec && RD->isInStdNamespace()) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() == 0)
      return false;
    for (const TemplateArgument &A : Args.asArray())
      if (A.getKind() != TemplateArgument::Type ||
          !holdsElements(A.getAsType(), Depth + 1))
        return false;
    return RD->getName() == "pair" || RD->getName() == "tuple";
  }
  if (!RD->hasDefinition() || RD->field_empty() || RD->getNumBases())
    return false;
  for (const FieldDecl *F : RD->fields())
    if (!holdsElements(F->getType(), Depth + 1))
      return false;
  return true;
}

const FieldDecl *pairBindingField(const DecompositionDecl *DD,
                                  const BindingDecl *B) {
  const auto *RD = DD->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->isInStdNamespace() || RD->getName() != "pair" ||
      !RD->hasDefinition())
    return nullptr;
  auto Bindings = DD->bindings();
  auto At = llvm::find(Bindings, B);
  if (At == Bindings.end())
    return nullptr;
  unsigned Index = At - Bindings.begin();
  for (const FieldDecl *F : RD->getDefinition()->fields())
    if (Index-- == 0)
      return F;
  return nullptr;
}

} // namespace distlint
