//===- CFGFacts.h - Per-function control-flow facts -------------*- C++ -*-===//
//
// The CFG of one function with what every analysis needs from it: which
// block holds a statement, post-dominators and control dependence. Built
// once per function and owned by the Engine.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace distlint {

class FunctionFacts {
public:
  /// Returns null when Clang cannot build a CFG for the body.
  static std::unique_ptr<FunctionFacts> build(const clang::FunctionDecl *FD,
                                              clang::ASTContext &Ctx);

  const clang::FunctionDecl *function() const { return FD; }
  clang::CFG &cfg() const { return *Graph; }
  /// Block holding S (or the block-level statement containing S).
  const clang::CFGBlock *blockOf(const clang::Stmt *S) const;
  /// Blocks B is directly control-dependent on.
  llvm::ArrayRef<clang::CFGBlock *>
  controlDependencies(const clang::CFGBlock *B);
  /// Transitive closure of controlDependencies, innermost first.
  std::vector<const clang::CFGBlock *>
  allControlDependencies(const clang::CFGBlock *B);
  /// Immediate post-dominator (null for the exit block / virtual root).
  const clang::CFGBlock *immediatePostDominator(const clang::CFGBlock *B) const;
  /// Can B run: is it reachable from the entry (code after a `return`, a
  /// noreturn call, or a never-taken branch is not)?
  bool reachable(const clang::CFGBlock *B) const {
    return B && B->getBlockID() < Reachable.size() &&
           Reachable[B->getBlockID()];
  }
  /// Does some statement sit in a block that cannot run?
  bool hasUnreachableCode() const { return UnreachableCode; }
  /// Blocks in reverse post-order from the entry.
  const std::vector<const clang::CFGBlock *> &reversePostOrder() const {
    return RPO;
  }
  const clang::ParentMap &parents() const { return *Parents; }
  /// Index in B of the first element that is S or contains S; B->size()
  /// when none does. Linear in the nesting depth of S, not in B's size.
  size_t elementIndexOf(const clang::CFGBlock *B, const clang::Stmt *S) const;

private:
  const clang::FunctionDecl *FD = nullptr;
  std::unique_ptr<clang::CFG> Graph;
  std::unique_ptr<clang::ParentMap> Parents;
  std::unique_ptr<clang::CFGStmtMap> StmtMap;
  std::unique_ptr<clang::ControlDependencyCalculator> CDC;
  std::vector<const clang::CFGBlock *> RPO;
  std::vector<bool> Reachable; ///< By block id.
  bool UnreachableCode = false;
  /// Statement element -> (its block, its index there); built on the first
  /// elementIndexOf, as most functions are never asked.
  mutable llvm::DenseMap<const clang::Stmt *,
                         std::pair<const clang::CFGBlock *, size_t>>
      Elements;
};

} // namespace distlint
