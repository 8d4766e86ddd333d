//===- ApiTestSupport.cpp - Parsing snippets for the API table tests ------===//
#include "ApiTestSupport.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Tooling/Tooling.h"

using namespace clang;

namespace distlint {
namespace apitest {

std::string testdataInclude() {
  return std::string(DISTLINT_SOURCE_DIR) + "/testdata/include";
}

namespace {
/// Collects statements and declarations written in the main file.
class MainFileCollector : public RecursiveASTVisitor<MainFileCollector> {
public:
  MainFileCollector(SourceManager &SM, std::vector<const Stmt *> &Stmts,
                    std::vector<const NamedDecl *> &Decls)
      : SM(SM), Stmts(Stmts), Decls(Decls) {}
  // Range-for begin()/end() calls and other implicit calls count.
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitStmt(Stmt *S) {
    if (SM.isInMainFile(SM.getExpansionLoc(S->getBeginLoc())))
      Stmts.push_back(S);
    return true;
  }
  bool VisitNamedDecl(NamedDecl *D) {
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Decls.push_back(D);
    return true;
  }

private:
  SourceManager &SM;
  std::vector<const Stmt *> &Stmts;
  std::vector<const NamedDecl *> &Decls;
};

class AllDeclCollector : public RecursiveASTVisitor<AllDeclCollector> {
public:
  explicit AllDeclCollector(
      llvm::StringMap<std::vector<const NamedDecl *>> &Out)
      : Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitNamedDecl(NamedDecl *D) {
    if (D->getDeclName().isEmpty() && !isa<CXXConstructorDecl>(D))
      return true;
    Out[api::qualifiedName(D)].push_back(D);
    return true;
  }

private:
  llvm::StringMap<std::vector<const NamedDecl *>> &Out;
};
} // namespace

Snippet::Snippet(std::string TheCode, std::vector<std::string> ExtraArgs,
                 bool UseTestdataInclude)
    : Code(std::move(TheCode)) {
  std::vector<std::string> Args = {"-std=c++17", "-resource-dir",
                                   DISTLINT_CLANG_RESOURCE_DIR};
  if (UseTestdataInclude)
    Args.push_back("-I" + testdataInclude());
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  AST = tooling::buildASTFromCodeWithArgs(Code, Args, "snippet.cpp");
  if (!AST)
    return;
  MainFileCollector C(AST->getSourceManager(), MainStmts, MainDecls);
  C.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
}

bool Snippet::ok() const {
  return AST && !AST->getDiagnostics().hasErrorOccurred();
}

ASTContext &Snippet::context() const { return AST->getASTContext(); }

unsigned Snippet::lineOf(llvm::StringRef Marker) const {
  // A marker is a whole word at the end of its line and appears once.
  unsigned Found = 0, Line = 1, Count = 0;
  llvm::StringRef Rest(Code);
  while (!Rest.empty()) {
    auto [LineText, Tail] = Rest.split('\n');
    if (LineText.rtrim().ends_with(Marker)) {
      llvm::StringRef Before = LineText.rtrim().drop_back(Marker.size());
      if (Before.ends_with(" ")) {
        Found = Line;
        ++Count;
      }
    }
    Rest = Tail;
    ++Line;
  }
  return Count == 1 ? Found : 0;
}

bool Snippet::onLine(SourceLocation Loc, unsigned Line) const {
  const SourceManager &SM = AST->getSourceManager();
  return SM.getExpansionLineNumber(Loc) == Line;
}

const CallExpr *Snippet::call(llvm::StringRef Marker,
                              llvm::StringRef CalleeName) const {
  unsigned Line = lineOf(Marker);
  if (!AST || !Line)
    return nullptr;
  for (const Stmt *S : MainStmts)
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->getNameAsString() == CalleeName &&
            onLine(CE->getBeginLoc(), Line))
          return CE;
  return nullptr;
}

const FunctionDecl *Snippet::callee(llvm::StringRef Marker,
                                   llvm::StringRef CalleeName) const {
  const CallExpr *CE = call(Marker, CalleeName);
  return CE ? CE->getDirectCallee() : nullptr;
}

const CXXConstructorDecl *
Snippet::constructor(llvm::StringRef Marker, llvm::StringRef ClassName) const {
  unsigned Line = lineOf(Marker);
  if (!AST || !Line)
    return nullptr;
  for (const Stmt *S : MainStmts)
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
      if (CE->getConstructor()->getParent()->getName() == ClassName &&
          onLine(CE->getBeginLoc(), Line))
        return CE->getConstructor();
  // make_intrusive<T>(...) constructs inside a template: take the class's
  // constructor the call would select by argument count.
  return nullptr;
}

const MemberExpr *Snippet::member(llvm::StringRef Marker,
                                  llvm::StringRef MemberName) const {
  unsigned Line = lineOf(Marker);
  for (const Stmt *S : MainStmts)
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (ME->getMemberDecl()->getNameAsString() == MemberName &&
          onLine(ME->getBeginLoc(), Line))
        return ME;
  return nullptr;
}

const DeclRefExpr *Snippet::declRef(llvm::StringRef Marker,
                                    llvm::StringRef Name) const {
  unsigned Line = lineOf(Marker);
  for (const Stmt *S : MainStmts)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl()->getNameAsString() == Name &&
          onLine(DRE->getBeginLoc(), Line))
        return DRE;
  return nullptr;
}

const NamedDecl *Snippet::decl(llvm::StringRef QualifiedName) const {
  for (const NamedDecl *D : MainDecls)
    if (api::qualifiedName(D) == QualifiedName)
      return D;
  return nullptr;
}

std::vector<const NamedDecl *>
Snippet::allDecls(llvm::StringRef QualifiedName) const {
  if (!AllDecls) {
    AllDecls = std::make_unique<llvm::StringMap<std::vector<const NamedDecl *>>>();
    AllDeclCollector C(*AllDecls);
    C.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  }
  auto It = AllDecls->find(QualifiedName);
  if (It == AllDecls->end())
    return {};
  return It->second;
}

std::vector<std::string> roleNames(llvm::ArrayRef<const api::ApiEntry *> Rows) {
  std::vector<std::string> Names;
  for (const api::ApiEntry *E : Rows)
    Names.push_back(api::roleName(E->TheRole));
  return Names;
}

} // namespace apitest
} // namespace distlint
