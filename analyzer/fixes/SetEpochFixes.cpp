//===- SetEpochFixes.cpp --------------------------------------------------===//
#include "fixes/SetEpochFixes.h"
#include "fixes/FixText.h"

#include "engine/Engine.h"
#include "engine/ast/Names.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace distlint::fixes {

namespace {
const CompoundStmt *loopBlock(const Stmt *Loop) {
  const Stmt *Body = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    Body = F->getBody();
  else if (const auto *W = dyn_cast<WhileStmt>(Loop))
    Body = W->getBody();
  else if (const auto *D = dyn_cast<DoStmt>(Loop))
    Body = D->getBody();
  else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    Body = R->getBody();
  return dyn_cast_or_null<CompoundStmt>(Body);
}

/// Where a new first statement of Block goes: a line of its own after '{'.
std::optional<FixItHint> insertAtTop(ASTContext &Ctx, const CompoundStmt *Block,
                                     const std::string &Text) {
  if (Block->body_empty())
    return std::nullopt;
  return insertLineBefore(Ctx, Block->body_front(), Text);
}

bool isSetEpochOf(const Stmt *S, const VarDecl *Sampler) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(
      dyn_cast_or_null<Expr>(S) ? cast<Expr>(S)->IgnoreImplicit() : nullptr);
  if (!Call || !Call->getMethodDecl() ||
      Call->getMethodDecl()->getName() != "set_epoch")
    return false;
  const auto *DR = dyn_cast<DeclRefExpr>(
      Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
  return DR && DR->getDecl() == Sampler;
}

/// Uses of V and calls of std::move/forward in S.
struct UseFinder : RecursiveASTVisitor<UseFinder> {
  const VarDecl *V = nullptr;
  unsigned Uses = 0;
  bool Moves = false;
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    Uses += DR->getDecl() == V;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee())
      if (FD->isInStdNamespace() &&
          (identifierName(FD) == "move" || identifierName(FD) == "forward"))
        Moves = true;
    return true;
  }
};
} // namespace

std::vector<FixItHint> insertSetEpoch(Engine &E, const Expr *Factory,
                                      const VarDecl *Sampler,
                                      const Stmt *EpochLoop) {
  if (!Factory || !Sampler || !EpochLoop || !Sampler->hasLocalStorage())
    return {};
  const VarDecl *Epoch = loopCounter(EpochLoop);
  const CompoundStmt *Block = loopBlock(EpochLoop);
  if (!Epoch || !Block)
    return {};
  ASTContext &Ctx = E.context();
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Call =
      memberAccess(Sampler) + "set_epoch(" + Epoch->getNameAsString() + ");";
  // Declared before the loop: reachable at its top.
  if (SM.isBeforeInTranslationUnit(Sampler->getLocation(),
                                   EpochLoop->getBeginLoc())) {
    if (auto H = insertAtTop(Ctx, Block, Call))
      return {*H};
    return {};
  }
  // Declared in the loop's block before the loader: right after it.
  const CompoundStmt *DeclBlock = nullptr, *FactoryBlock = nullptr;
  const Stmt *FactoryStmt = statementInBlock(Ctx, Factory, &FactoryBlock);
  for (const Stmt *S : Block->body()) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS || !DS->isSingleDecl() || DS->getSingleDecl() != Sampler)
      continue;
    DeclBlock = Block;
    auto It = llvm::find(Block->body(), S);
    if (DeclBlock != FactoryBlock || !FactoryStmt ||
        std::next(It) == Block->body_end())
      return {};
    if (auto H = insertLineBefore(Ctx, *std::next(It), Call))
      return {*H};
  }
  return {};
}

std::vector<FixItHint> moveLoaderIntoEpochLoop(Engine &E, const Expr *Factory,
                                               const VarDecl *Sampler,
                                               const Stmt *EpochLoop) {
  if (!Factory || !Sampler || !EpochLoop || !Sampler->hasLocalStorage())
    return {};
  const VarDecl *Epoch = loopCounter(EpochLoop);
  const CompoundStmt *Block = loopBlock(EpochLoop);
  if (!Epoch || !Block || Block->body_empty())
    return {};
  ASTContext &Ctx = E.context();
  const SourceManager &SM = Ctx.getSourceManager();
  const CompoundStmt *Outer = nullptr;
  const Stmt *Decl = statementInBlock(Ctx, Factory, &Outer);
  const auto *DS = dyn_cast_or_null<DeclStmt>(Decl);
  if (!DS || !DS->isSingleDecl())
    return {};
  const auto *Loader = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!Loader ||
      !SM.isBeforeInTranslationUnit(Sampler->getLocation(), DS->getBeginLoc()))
    return {};
  // The loop must follow the declaration in the same block, and the loader
  // must be used only inside the loop; its arguments must survive being
  // evaluated again each epoch.
  auto DeclIt = llvm::find(Outer->body(), Decl);
  auto LoopIt = llvm::find(Outer->body(), EpochLoop);
  if (LoopIt == Outer->body_end() || DeclIt == Outer->body_end() ||
      LoopIt <= DeclIt)
    return {};
  UseFinder InDecl;
  InDecl.V = Loader;
  InDecl.TraverseStmt(const_cast<Stmt *>(Decl));
  if (InDecl.Moves)
    return {};
  unsigned InLoop = 0, Total = 0;
  for (auto It = std::next(DeclIt); It != Outer->body_end(); ++It) {
    UseFinder F;
    F.V = Loader;
    F.TraverseStmt(const_cast<Stmt *>(*It));
    Total += F.Uses;
    if (It == LoopIt)
      InLoop = F.Uses;
  }
  if (InLoop == 0 || InLoop != Total)
    return {};
  CharSourceRange R = statementRange(Ctx, Decl);
  if (R.isInvalid())
    return {};
  // Remove the whole line(s) of the declaration when it stands alone.
  auto [FID, Begin] = SM.getDecomposedLoc(R.getBegin());
  auto [EndFID, End] = SM.getDecomposedLoc(R.getEnd());
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid || FID != EndFID)
    return {};
  size_t LineStart = Buffer.rfind('\n', Begin ? Begin - 1 : 0);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  size_t LineEnd = Buffer.find('\n', End);
  if (!Buffer.slice(LineStart, Begin).trim().empty() ||
      LineEnd == StringRef::npos || !Buffer.slice(End, LineEnd).trim().empty())
    return {};
  StringRef DeclText = Buffer.slice(Begin, End);
  // Re-indent continuation lines by the difference of the two blocks.
  std::string OldIndent = Buffer.slice(LineStart, Begin).str();
  std::string NewIndent = indentOf(Ctx, Block->body_front()->getBeginLoc());
  std::string Moved;
  for (StringRef Rest = DeclText; !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    if (!Moved.empty()) {
      Moved += "\n";
      Line.consume_front(OldIndent);
      Moved += NewIndent;
    }
    Moved += Line.str();
    Rest = Tail;
    if (Tail.empty())
      break;
  }
  // Keep an existing set_epoch at the loop's top before the loader.
  const Stmt *Anchor = Block->body_front();
  bool HasSetEpoch = isSetEpochOf(Anchor, Sampler);
  std::vector<FixItHint> Out;
  Out.push_back(FixItHint::CreateRemoval(CharSourceRange::getCharRange(
      SM.getComposedLoc(FID, LineStart), SM.getComposedLoc(FID, LineEnd + 1))));
  std::string Text = HasSetEpoch ? Moved
                                 : memberAccess(Sampler) + "set_epoch(" +
                                       Epoch->getNameAsString() + ");\n" +
                                       NewIndent + Moved;
  std::optional<FixItHint> Insert =
      HasSetEpoch && std::next(Block->body_begin()) != Block->body_end()
          ? insertLineBefore(Ctx, *std::next(Block->body_begin()), Text)
          : (HasSetEpoch ? std::nullopt : insertLineBefore(Ctx, Anchor, Text));
  if (!Insert)
    return {};
  Out.push_back(*Insert);
  return Out;
}

} // namespace distlint::fixes
