//===- ApiTestSupport.h - Parsing snippets for the API table tests --------===//
#pragma once

#include "api/ApiTable.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/ASTUnit.h"

#include <memory>
#include <string>
#include <vector>

namespace distlint {
namespace apitest {

/// Include directory of the project's API declarations.
std::string testdataInclude();

/// A parsed snippet with its main-file expressions indexed by line.
class Snippet {
public:
  /// Parses Code with -std=c++17 and ExtraArgs; by default against
  /// testdata/include.
  explicit Snippet(std::string Code, std::vector<std::string> ExtraArgs = {},
                   bool UseTestdataInclude = true);

  bool ok() const; ///< Parsed without errors.
  clang::ASTContext &context() const;

  /// The call of a function named CalleeName on the line holding Marker
  /// (a comment like `// @pgptr`), or null. Operator calls are named
  /// "operator()", "operator<<"...
  const clang::CallExpr *call(llvm::StringRef Marker,
                              llvm::StringRef CalleeName) const;
  /// Its callee.
  const clang::FunctionDecl *callee(llvm::StringRef Marker,
                                    llvm::StringRef CalleeName) const;
  /// The constructor called on the line holding Marker (outermost first).
  const clang::CXXConstructorDecl *constructor(llvm::StringRef Marker,
                                               llvm::StringRef ClassName) const;
  /// A member expression / declaration reference on that line.
  const clang::MemberExpr *member(llvm::StringRef Marker,
                                  llvm::StringRef MemberName) const;
  const clang::DeclRefExpr *declRef(llvm::StringRef Marker,
                                    llvm::StringRef Name) const;
  /// A declaration of the main file by qualified name.
  const clang::NamedDecl *decl(llvm::StringRef QualifiedName) const;

  /// Every declaration of the TU (headers included) by qualified name.
  std::vector<const clang::NamedDecl *>
  allDecls(llvm::StringRef QualifiedName) const;

private:
  unsigned lineOf(llvm::StringRef Marker) const;
  bool onLine(clang::SourceLocation Loc, unsigned Line) const;
  std::string Code;
  std::unique_ptr<clang::ASTUnit> AST;
  std::vector<const clang::Stmt *> MainStmts;
  std::vector<const clang::NamedDecl *> MainDecls;
  mutable std::unique_ptr<llvm::StringMap<std::vector<const clang::NamedDecl *>>>
      AllDecls;
};

/// Names of the roles of rows, for readable expectations.
std::vector<std::string> roleNames(llvm::ArrayRef<const api::ApiEntry *> Rows);

} // namespace apitest
} // namespace distlint
