//===- Fields.cpp - Structs given a value field by field
//-------------------===//
//
// `Shard s = {rank * n, n};` or `Shard s = shardOf(n, rank);` gives each
// field of s its own value: a rank-dependent offset beside a uniform size.
// The path records them as field entries of s (VarState.h), and a function
// that returns such a struct summarizes its fields, so that its callers'
// copies keep them apart.
//
//===----------------------------------------------------------------------===//
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {

namespace {

/// Records whose fields are the braced list's elements, in order: plain
/// structs (no bases, no unions), not too wide to track.
const RecordDecl *fieldwiseRecord(QualType T) {
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD || RD->isUnion() || !RD->getDefinition())
    return nullptr;
  RD = RD->getDefinition();
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD);
      CRD && CRD->getNumBases() != 0)
    return nullptr;
  constexpr unsigned kMaxFields = 64;
  unsigned N = 0;
  for (const FieldDecl *F : RD->fields()) {
    (void)F;
    if (++N > kMaxFields)
      return nullptr;
  }
  return RD;
}

/// The braced list a value is built from, if any.
const InitListExpr *bracedList(const Expr *Value) {
  const auto *ILE = dyn_cast<InitListExpr>(strip(Value));
  if (const auto *CL = dyn_cast<CompoundLiteralExpr>(strip(Value)))
    ILE = dyn_cast<InitListExpr>(CL->getInitializer());
  if (ILE && !ILE->isSemanticForm())
    ILE = ILE->getSemanticForm();
  return ILE;
}

/// The user call a value is the (copied) result of, if any.
const CallExpr *resultOfCall(const Expr *Value) {
  const Expr *X = strip(Value);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(X);
      CE && CE->getNumArgs() == 1 &&
      CE->getConstructor()->isCopyOrMoveConstructor())
    X = strip(CE->getArg(0));
  return dyn_cast<CallExpr>(X);
}

} // namespace

void UniformityAnalysis::assignFields(const VarDecl *VD, const Expr *Value,
                                      VarState &S, const Taint &Ctl) {
  if (!VD || !Value || !isLocal(VD))
    return;
  const RecordDecl *RD = fieldwiseRecord(VD->getType());
  if (!RD)
    return;
  if (const InitListExpr *ILE = bracedList(Value)) {
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      if (I >= ILE->getNumInits())
        break;
      Taint T = eval(ILE->getInit(I++), S);
      T.addControl(Ctl);
      S[StateKey(VD, F)] = T;
    }
    return;
  }
  const CallExpr *Call = resultOfCall(Value);
  const FunctionDecl *Callee = Call ? E.resolveCallee(Call) : nullptr;
  if (!Callee || !Callee->hasBody() || !isTaughtDecl(E, Callee))
    return;
  const FunctionDecl *Def = Callee->getDefinition();
  FunctionResult *CR = P.analyze(Def ? Def : Callee);
  if (!CR || CR->ReturnFieldsUnknown || CR->ReturnFields.empty())
    return;
  const auto Fields = CR->ReturnFields; // A recursive call may change them.
  llvm::ArrayRef<const Expr *> Args = splitCall(Call, Callee).second;
  for (const auto &[F, FT] : Fields) {
    if (!FT)
      continue; // A read gives what the TU-wide field facts say.
    Taint T = *FT;
    uint64_t From = T.Params;
    const Taint Summary = T;
    T.Params = T.ShapeParams = 0;
    for (unsigned I = 0; I < Args.size() && I < 64; ++I)
      if (From & (uint64_t(1) << I))
        T.join(Summary.argumentTaint(I, eval(Args[I], S)));
    T.addControl(Ctl);
    S[StateKey(VD, F)] = T;
  }
}

void UniformityAnalysis::noteReturnedFields(const Expr *Value,
                                            const VarState &S,
                                            const Taint &Ctl) {
  if (!Value || R.ReturnFieldsUnknown)
    return;
  const RecordDecl *RD = fieldwiseRecord(Value->getType());
  if (!RD)
    return;
  llvm::SmallVector<std::pair<const FieldDecl *, std::optional<Taint>>, 4>
      Fields;
  const InitListExpr *ILE = bracedList(Value);
  const auto *DR = dyn_cast<DeclRefExpr>(strip(Value));
  const auto *Local = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (Local && !isLocal(Local))
    Local = nullptr;
  unsigned I = 0;
  for (const FieldDecl *F : RD->fields()) {
    std::optional<Taint> T;
    if (ILE) {
      if (I >= ILE->getNumInits())
        break;
      T = eval(ILE->getInit(I++), S);
    } else if (Local) {
      // What the path knows of the field, if anything.
      auto Known = S.find(StateKey(Local, F));
      if (Known != S.end())
        T = Known->second;
    } else {
      break;
    }
    if (T)
      T->addControl(Ctl);
    Fields.push_back({F, T});
  }
  if (Fields.empty()) {
    R.ReturnFieldsUnknown = true;
    R.ReturnFields.clear();
    return;
  }
  if (R.ReturnFields.empty()) {
    R.ReturnFields = std::move(Fields);
    return;
  }
  for (auto &Entry : R.ReturnFields) {
    auto It = llvm::find_if(
        Fields, [&](const auto &P) { return P.first == Entry.first; });
    if (It == Fields.end()) {
      R.ReturnFieldsUnknown = true;
      R.ReturnFields.clear();
      return;
    }
    if (Entry.second && It->second)
      Entry.second->mergePaths(*It->second);
    else
      Entry.second.reset();
  }
}

} // namespace distlint
