//===- FixText.cpp --------------------------------------------------------===//
#include "fixes/FixText.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace distlint::fixes {

const Stmt *statementInBlock(ASTContext &Ctx, const Stmt *S,
                             const CompoundStmt **Parent) {
  const Stmt *Cur = S;
  for (int Depth = 0; Cur && Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(*Cur);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *C = Parents[0].get<CompoundStmt>()) {
      if (Parent)
        *Parent = C;
      return Cur;
    }
    // Only climb through what stays one statement: expressions, a
    // declaration, a return. Not through if/loop headers or lambdas.
    const Stmt *Up = Parents[0].get<Stmt>();
    if (!Up) {
      const auto *V = Parents[0].get<VarDecl>();
      if (!V || V->isStaticLocal())
        return nullptr;
      auto DeclParents = Ctx.getParents(*V);
      if (DeclParents.size() != 1 || !DeclParents[0].get<DeclStmt>())
        return nullptr;
      Cur = DeclParents[0].get<DeclStmt>();
      continue;
    }
    if (isa<LambdaExpr>(Up) ||
        !(isa<Expr>(Up) || isa<DeclStmt>(Up) || isa<ReturnStmt>(Up)))
      return nullptr;
    Cur = Up;
  }
  return nullptr;
}

CharSourceRange statementRange(ASTContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM, LO);
  if (R.isInvalid())
    return R;
  // Expression statements and returns end with a ';' outside their range
  // (a declaration statement's range has it).
  if (isa<Expr>(S) || isa<ReturnStmt>(S)) {
    SourceLocation Last = SM.getExpansionRange(S->getEndLoc()).getEnd();
    std::optional<Token> Next = Lexer::findNextToken(Last, SM, LO);
    if (!Next || !Next->is(tok::semi))
      return CharSourceRange();
    R.setEnd(Next->getEndLoc());
  }
  return R;
}

std::string indentOf(ASTContext &Ctx, SourceLocation Loc) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [FID, Offset] = SM.getDecomposedLoc(SM.getFileLoc(Loc));
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return "";
  size_t Start = Buffer.rfind('\n', Offset ? Offset - 1 : 0);
  Start = Start == StringRef::npos ? 0 : Start + 1;
  size_t End = Start;
  while (End < Buffer.size() && (Buffer[End] == ' ' || Buffer[End] == '\t'))
    ++End;
  return Buffer.slice(Start, End).str();
}

std::optional<FixItHint> insertLineBefore(ASTContext &Ctx, const Stmt *S,
                                          const std::string &Line) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = statementRange(Ctx, S);
  if (R.isInvalid())
    return std::nullopt;
  auto [FID, Offset] = SM.getDecomposedLoc(R.getBegin());
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return std::nullopt;
  size_t LineStart = Buffer.rfind('\n', Offset ? Offset - 1 : 0);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  if (!Buffer.slice(LineStart, Offset).trim().empty())
    return std::nullopt; // Something else precedes S on its line.
  std::string Indent = Buffer.slice(LineStart, Offset).str();
  SourceLocation At = SM.getComposedLoc(FID, LineStart);
  return FixItHint::CreateInsertion(At, Indent + Line + "\n");
}

std::vector<FixItHint> includeOnce(ASTContext &Ctx, SourceLocation Loc,
                                   StringRef Header) {
  const SourceManager &SM = Ctx.getSourceManager();
  FileID FID = SM.getFileID(SM.getFileLoc(Loc));
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return {};
  size_t InsertAt = 0;
  size_t Pos = 0;
  while (Pos < Buffer.size()) {
    size_t End = Buffer.find('\n', Pos);
    if (End == StringRef::npos)
      End = Buffer.size();
    StringRef Line = Buffer.slice(Pos, End).trim();
    if (Line.consume_front("#")) {
      Line = Line.ltrim();
      if (Line.consume_front("include")) {
        StringRef Name = Line.trim();
        if (Name == ("<" + Header + ">").str() ||
            Name == ("\"" + Header + "\"").str())
          return {};
        InsertAt = End + 1;
      }
    }
    Pos = End + 1;
  }
  if (InsertAt > Buffer.size())
    InsertAt = Buffer.size();
  return {FixItHint::CreateInsertion(SM.getComposedLoc(FID, InsertAt),
                                     ("#include <" + Header + ">\n").str())};
}

namespace {
const VarDecl *incrementedVar(const Stmt *S) {
  const Expr *X = dyn_cast_or_null<Expr>(S);
  if (!X)
    return nullptr;
  X = X->IgnoreParenImpCasts();
  const Expr *Target = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(X);
      U && U->isIncrementOp())
    Target = U->getSubExpr();
  else if (const auto *B = dyn_cast<CompoundAssignOperator>(X);
           B && B->getOpcode() == BO_AddAssign)
    Target = B->getLHS();
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
           OC && (OC->getOperator() == OO_PlusPlus) && OC->getNumArgs() >= 1)
    Target = OC->getArg(0);
  if (!Target)
    return nullptr;
  const auto *DR = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || !V->getType()->isIntegerType() ||
      V->getType().isConstQualified())
    return nullptr;
  return V;
}
} // namespace

const VarDecl *loopCounter(const Stmt *Loop) {
  const Stmt *Body = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(Loop)) {
    if (const VarDecl *V = incrementedVar(F->getInc()))
      return V;
    Body = F->getBody();
  } else if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    Body = W->getBody();
  } else if (const auto *D = dyn_cast<DoStmt>(Loop)) {
    Body = D->getBody();
  } else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop)) {
    Body = R->getBody();
  }
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(Body))
    for (const Stmt *S : C->body())
      if (const VarDecl *V = incrementedVar(S))
        return V;
  return nullptr;
}

std::string memberAccess(const VarDecl *V) {
  QualType T = V->getType().getNonReferenceType();
  bool Arrow = T->isPointerType();
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl(); RD && !Arrow)
    for (const CXXMethodDecl *M : RD->methods())
      Arrow |= M->getOverloadedOperator() == OO_Arrow;
  return V->getNameAsString() + (Arrow ? "->" : ".");
}

} // namespace distlint::fixes
