//===- MapKeys.h - Keys a map surely holds where it is indexed -*- C++ -*-===//
//
// A map's operator[] adds its key when the key is missing, so an element
// written under a branch that differs between ranks may leave the maps
// with different lengths. Not when the key is a constant the code put in
// the map on every way to that write: `m = {{"loss", 0.0}};` then
// `for (auto &b : shard) m["loss"] += b.loss;` adds nothing on any rank.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace clang {
class ASTContext;
class CXXOperatorCallExpr;
class ParentMap;
} // namespace clang

namespace distlint {

/// Does every execution of Subscript (`m[K]`, `obj.m[K]`, `this->m[K]`
/// with K a constant) find K in m already? A statement before it in an
/// enclosing block put K there (an assignment or initialization from a
/// list that names K, `m[K] = v`, `m.emplace(K, ...)`), and nothing from
/// that statement through the one holding the write (its loops included)
/// may remove it: erase, clear, swap, another assignment, the map or its
/// object handed out by non-const reference or address, or a non-const
/// method of that object.
bool keyAlreadyPresent(const clang::CXXOperatorCallExpr *Subscript,
                       const clang::ParentMap &Parents,
                       const clang::ASTContext &Ctx);

} // namespace distlint
