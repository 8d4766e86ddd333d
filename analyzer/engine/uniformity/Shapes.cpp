//===- Shapes.cpp - The shape a call's result has -------------------------===//
//
// Tensors and containers carry their shape apart from their values: a
// call's result gets a shape key (the same key, the same shape on every
// rank) from constant sizes, from its receiver or first tensor argument
// (SameShape rows), or from a scalar operator; and the shape varies only
// when what it is built from does (sizes, inputs, an element picked by a
// rank-dependent index among containers).
//
//===----------------------------------------------------------------------===//
#include "engine/Values.h"
#include "engine/ast/AstHelpers.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <optional>

using namespace clang;

namespace distlint {

using api::Role;

/// The integers of a braced list or single integer argument, when all are
/// non-negative constants (`{1}`, `{2, 3}`, `8`); -1 ("infer") is unknown.
static bool constantInts(const Expr *A, ASTContext &Ctx,
                         llvm::SmallVectorImpl<int64_t> &Out) {
  A = strip(A);
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(A))
    A = strip(SIL->getSubExpr());
  if (const auto *CE = dyn_cast<CXXConstructExpr>(A)) {
    if (CE->getNumArgs() != 1)
      return false;
    return constantInts(CE->getArg(0), Ctx, Out);
  }
  if (const auto *IL = dyn_cast<InitListExpr>(A)) {
    for (const Expr *Init : IL->inits())
      if (!constantInts(Init, Ctx, Out))
        return false;
    return IL->getNumInits() > 0;
  }
  if (A->isValueDependent())
    return false;
  auto V = A->getIntegerConstantExpr(Ctx);
  if (!V || V->isNegative() || !V->isRepresentableByInt64())
    return false;
  Out.push_back(V->getExtValue());
  return true;
}

/// A braced list of numbers (or of such lists, all of one shape) given as a
/// tensor's data (`torch::tensor({epochs, every})`) has a shape of its own,
/// its lengths, whatever the numbers are: Dims gets them.
static bool bracedValues(const Expr *A, llvm::SmallVectorImpl<int64_t> &Dims) {
  A = A->IgnoreImplicit();
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(A))
    return bracedValues(MT->getSubExpr(), Dims);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(A))
    return CE->getNumArgs() == 1 && bracedValues(CE->getArg(0), Dims);
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(A))
    return bracedValues(SIL->getSubExpr(), Dims);
  const auto *IL = dyn_cast<InitListExpr>(A);
  if (!IL || IL->getNumInits() == 0)
    return false;
  Dims.push_back(IL->getNumInits());
  std::optional<llvm::SmallVector<int64_t, 4>> Row;
  for (const Expr *Init : IL->inits()) {
    const Expr *Leaf = Init->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Leaf);
        CE && CE->getNumArgs() == 1)
      Leaf = CE->getArg(0)->IgnoreImplicit();
    llvm::SmallVector<int64_t, 4> Inner;
    if (!Leaf->getType()->isArithmeticType() && !bracedValues(Leaf, Inner))
      return false;
    if (Row && *Row != Inner)
      return false; // Ragged: not a tensor's data.
    Row = Inner;
  }
  Dims.append(Row->begin(), Row->end());
  return true;
}

static uint64_t dimsKey(llvm::ArrayRef<int64_t> Dims) {
  uint64_t Key = 1469598103934665603ull;
  for (int64_t D : Dims)
    Key = (Key ^ uint64_t(D + 1)) * 1099511628211ull;
  return Key ? Key : 1;
}

/// A FullReduction row's overload that takes no dimension: no parameter
/// past the reduced tensor (a free function's first) is a dimension (an
/// integer, an array of them, a dimension name) or another tensor (`t.max(o)`
/// is element-wise).
static bool reducesEveryDimension(const FunctionDecl *Callee) {
  unsigned First = isa<CXXMethodDecl>(Callee) ? 0 : 1;
  if (First > Callee->getNumParams())
    return false;
  for (unsigned I = First; I < Callee->getNumParams(); ++I) {
    QualType T = Callee->getParamDecl(I)
                     ->getType()
                     .getNonReferenceType()
                     .getUnqualifiedType();
    if (T->isBooleanType() || T->isEnumeralType())
      continue;
    if (T->isIntegerType() || isTensorType(T) || isSizeArrayType(T))
      return false;
    if (const auto *RD = T->getAsCXXRecordDecl();
        RD && RD->getIdentifier() &&
        (RD->getName().contains("ArrayRef") || RD->getName() == "Dimname"))
      return false;
  }
  return true;
}

uint64_t
UniformityAnalysis::constantShapeKey(const FunctionDecl *Callee,
                                     llvm::ArrayRef<const Expr *> Args) {
  if (!Callee)
    return 0;
  // The result's shape is its `size` / `shape` int-array parameter
  // (factories: zeros(size), full(size, v); views: reshape(shape)); other
  // int arrays (sum(dim)) say nothing about it.
  for (unsigned I = 0; I < Args.size() && I < Callee->getNumParams(); ++I) {
    const ParmVarDecl *PD = Callee->getParamDecl(I);
    if (!isSizeArrayType(PD->getType()) || !PD->getIdentifier() ||
        (PD->getName() != "size" && PD->getName() != "shape"))
      continue;
    llvm::SmallVector<int64_t, 4> Dims;
    if (!constantInts(Args[I], E.context(), Dims))
      return 0;
    return dimsKey(Dims);
  }
  // A factory given its data as braced numbers has their lengths.
  llvm::SmallVector<int64_t, 4> Dims;
  if (!isa<CXXMethodDecl>(Callee) && !Args.empty() &&
      Args[0]->getType()->isRecordType() && Callee->getNumParams() > 0 &&
      !isSizeArrayType(Callee->getParamDecl(0)->getType()) &&
      bracedValues(Args[0], Dims))
    return dimsKey(Dims);
  return 0;
}

uint64_t UniformityAnalysis::resultShapeKey(const CallExpr *Call,
                                            const FunctionDecl *Callee,
                                            const Expr *Receiver,
                                            llvm::ArrayRef<const Expr *> Args,
                                            const VarState &S) {
  if (!isTensorType(Call->getType()))
    return 0;
  if (uint64_t Key = constantShapeKey(Callee, Args))
    return Key;
  if (Callee && E.api().has(Callee, Role::FullReduction) &&
      reducesEveryDimension(Callee))
    return dimsKey({});
  if (isa<CXXOperatorCallExpr>(Call))
    if (uint64_t Key = scalarOperatorShapeKey(Receiver, Args, S))
      return Key;
  return sameShapeKey(Callee, Receiver, Args, S);
}

uint64_t UniformityAnalysis::sameShapeKey(const FunctionDecl *Callee,
                                          const Expr *Receiver,
                                          llvm::ArrayRef<const Expr *> Args,
                                          const VarState &S) {
  if (!Callee || !E.api().has(Callee, api::Role::SameShape))
    return 0;
  if (Receiver)
    return isTensorType(Receiver->getType()) ? eval(Receiver, S).ShapeKey : 0;
  for (const Expr *A : Args)
    if (isTensorType(A->getType()))
      return eval(A, S).ShapeKey;
  return 0;
}

uint64_t
UniformityAnalysis::scalarOperatorShapeKey(const Expr *Receiver,
                                           llvm::ArrayRef<const Expr *> Args,
                                           const VarState &S) {
  // `t * 0.5`, `t - 1`: an operator between one tensor and numbers keeps
  // the tensor's shape; two tensors may broadcast to another one, unless
  // both have the same shape (`a.sum() / b.sum()`).
  uint64_t Key = 0;
  auto Operand = [&](const Expr *A) {
    if (!isTensorType(A->getType()))
      return true;
    uint64_t Own = eval(A, S).ShapeKey;
    if (Key && Own != Key)
      return false;
    Key = Own;
    return Key != 0;
  };
  if (Receiver && !Operand(Receiver))
    return 0;
  for (const Expr *A : Args)
    if (!Operand(A))
      return 0;
  return Key;
}

const Expr *
UniformityAnalysis::valuesDecidingShape(const FunctionDecl *Callee,
                                        const Expr *Receiver,
                                        llvm::ArrayRef<const Expr *> Args) {
  if (Callee)
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      if (Row->TheRole == Role::ShapeFromValues) {
        // A length the caller passes (`bincount(y, {}, classes)`) bounds
        // the result: that length decides, as a SizeArgument row says.
        if (Row->Args.Count >= 0 && Row->Args.Count < (int)Args.size() &&
            !isa<CXXDefaultArgExpr>(Args[Row->Args.Count]))
          return nullptr;
        return Row->Args.Value < 0                  ? Receiver
               : Row->Args.Value < (int)Args.size() ? Args[Row->Args.Value]
                                                    : nullptr;
      }
  return nullptr;
}

/// The integer an argument passes (a `c10::optional<int64_t>` built from
/// one is that integer).
static const Expr *passedInteger(const Expr *A) {
  A = A->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(A);
      CE && CE->getNumArgs() == 1)
    A = CE->getArg(0)->IgnoreImplicit();
  return A->IgnoreParenImpCasts();
}

bool UniformityAnalysis::rangeWidthVaries(const FunctionDecl *Callee,
                                          llvm::ArrayRef<const Expr *> Args,
                                          const VarState &S) {
  const api::ApiEntry *Row = nullptr;
  for (const api::ApiEntry *R : E.api().lookup(Callee))
    if (R->TheRole == api::Role::SizeRange)
      Row = R;
  if (!Row || Row->Args.Begin >= (int)Args.size() ||
      Row->Args.End >= (int)Args.size() || Row->Args.Begin < 0 ||
      Row->Args.End < 0)
    return false;
  const Expr *Begin = passedInteger(Args[Row->Args.Begin]);
  const Expr *End = passedInteger(Args[Row->Args.End]);
  auto Uniform = [&](const Expr *X) { return !eval(X, S).Vary; };
  if (Uniform(Begin) && Uniform(End))
    return false;
  // Each side as written, or as the local it reads was initialized where
  // nothing writes it afterwards (`end = begin + chunk`).
  auto Defined = [&](const Expr *X) -> const Expr * {
    const auto *DR = dyn_cast<DeclRefExpr>(X);
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD || !isLocal(VD) || isa<ParmVarDecl>(VD) || !VD->getInit() ||
        (FD && FD->getBody() && isWrittenIn(E, VD, FD->getBody())))
      return X;
    return passedInteger(VD->getInit());
  };
  for (const Expr *B : {Begin, Defined(Begin)})
    for (const Expr *En : {End, Defined(End)})
      if (uniformDistance(En, B, Uniform))
        return false;
  return true;
}

/// The braced list a size argument was written as (`{rows, 6}`, through
/// the IntArrayRef it converts to), or null.
static const InitListExpr *bracedList(const Expr *A) {
  A = A->IgnoreImplicit();
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(A))
    return bracedList(MT->getSubExpr());
  if (const auto *CE = dyn_cast<CXXConstructExpr>(A))
    return CE->getNumArgs() == 1 ? bracedList(CE->getArg(0)) : nullptr;
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(A))
    return bracedList(SIL->getSubExpr());
  return dyn_cast<InitListExpr>(A);
}

uint8_t UniformityAnalysis::sizeListVaryingDims(const Expr *A,
                                                const VarState &S) {
  const InitListExpr *List = bracedList(A);
  if (!List)
    return eval(A, S).Vary ? Taint::AllDims : 0;
  uint8_t Dims = 0;
  for (unsigned D = 0; D < List->getNumInits(); ++D)
    if (eval(List->getInit(D), S).Vary)
      Dims |= Taint::dimBit(D);
  return Dims;
}

/// The row of a call that returns a view of its receiver along one
/// dimension (`narrow(dim, start, length)`, `slice(dim, begin, end)`).
static const api::ApiEntry *viewAlongDimension(const Engine &E,
                                               const FunctionDecl *Callee) {
  if (Callee)
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      if ((Row->TheRole == Role::SizeArgument ||
           Row->TheRole == Role::SizeRange) &&
          Row->Args.Dim >= 0)
        return Row;
  return nullptr;
}

uint8_t UniformityAnalysis::resultVaryingDims(const CallExpr *Call,
                                              const FunctionDecl *Callee,
                                              const Expr *Receiver,
                                              llvm::ArrayRef<const Expr *> Args,
                                              const VarState &S) {
  const api::ApiEntry *View = viewAlongDimension(E, Callee);
  // A view, or a result of its receiver's shape, differs where the
  // receiver does; any other result of a receiver whose shape differs may
  // differ anywhere (a transpose, a reshape, a reduction).
  uint8_t Dims = 0;
  if (Receiver)
    if (uint8_t Own = eval(Receiver, S).varyingDims())
      Dims = View || (Callee && E.api().has(Callee, Role::SameShape))
                 ? Own
                 : Taint::AllDims;
  // `(g.abs() > thr).nonzero()`: as many elements as the values select.
  if (const Expr *Decides = valuesDecidingShape(Callee, Receiver, Args);
      Decides && eval(Decides, S).Vary)
    return Taint::AllDims;
  // `shards[rank]`: an element chosen by a rank-dependent index, when the
  // elements are containers themselves, may be any of them, of its own
  // length (a tensor's rows, by contrast, all have one shape).
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
      OC && OC->getOperator() == OO_Subscript && Receiver && Args.size() == 1 &&
      !isTensorType(Receiver->getType())) {
    QualType Element = Call->getType().getNonReferenceType();
    if (!isTensorType(Element) &&
        memberTypedef(Element->getAsCXXRecordDecl(), "value_type") &&
        eval(Args[0], S).Vary)
      return Taint::AllDims;
  }
  // The view's width is the extent of the dimension it cuts along; the
  // other dimensions are the receiver's.
  if (View) {
    bool WidthVaries = View->TheRole == Role::SizeRange
                           ? rangeWidthVaries(Callee, Args, S)
                           : View->Args.Count < (int)Args.size() &&
                                 eval(Args[View->Args.Count], S).Vary;
    Taint Along = View->Args.Dim < (int)Args.size()
                      ? eval(Args[View->Args.Dim], S)
                      : Taint();
    std::optional<int64_t> D;
    if (Along.singleValue() && Along.Range->Lo.W == 0 && Along.Range->Lo.C >= 0)
      D = Along.Range->Lo.C;
    if (WidthVaries)
      Dims |= D ? Taint::dimBit(*D) : Taint::AllDims;
    else if (D && *D < 7)
      Dims &= uint8_t(~Taint::dimBit(*D));
  } else if (rangeWidthVaries(Callee, Args, S)) {
    return Taint::AllDims;
  }
  bool IsOperator = isa<CXXOperatorCallExpr>(Call);
  bool KeepsShape = Callee && E.api().has(Callee, Role::SameShape);
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *A = Args[I];
    if (isa<LambdaExpr>(strip(A)))
      continue;
    if (View && ((int)I == View->Args.Count || (int)I == View->Args.Dim ||
                 (int)I == View->Args.Begin || (int)I == View->Args.End))
      continue;
    // Tensors and other objects that hold data (a dataset, a vector) pass
    // their shape on; small value types (a device, options) do not.
    QualType AT = A->getType().getNonReferenceType();
    if (isTensorLike(AT)) {
      if (uint8_t Own = eval(A, S).varyingDims())
        Dims |= KeepsShape && !Receiver ? Own : Taint::AllDims;
      continue;
    }
    if (IsOperator || !Callee)
      continue; // `t + rank`, `t[rank]`: values, not shapes.
    bool Size = I < Callee->getNumParams() &&
                isSizeArrayType(Callee->getParamDecl(I)->getType());
    if (Size) {
      Dims |= sizeListVaryingDims(A, S);
      continue;
    }
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      if (Row->TheRole == Role::SizeArgument && Row->Args.Count == (int)I)
        Size = true;
    if (Size) {
      if (eval(A, S).Vary)
        return Taint::AllDims;
      continue;
    }
    if (AT->isRecordType()) {
      llvm::SmallVector<int64_t, 4> Lengths;
      if (bracedValues(A, Lengths))
        continue;
      // A number converted to a value type (c10::Scalar) is a value.
      const Expr *Inner = A->IgnoreImplicit();
      if (const auto *CE = dyn_cast<CXXConstructExpr>(Inner);
          CE && CE->getNumArgs() == 1 &&
          CE->getArg(0)->getType()->isArithmeticType())
        continue;
      if (!AT.isTriviallyCopyableType(E.context()) && eval(A, S).shapeVaries())
        return Taint::AllDims;
      continue;
    }
  }
  return Dims;
}

} // namespace distlint
