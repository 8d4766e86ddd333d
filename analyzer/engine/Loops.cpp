//===- Loops.cpp - Loop questions of the engine (stub, owned by issue 4) --===//
#include "Engine.h"

using namespace clang;

namespace distlint {

bool Engine::reaches(const Stmt *, api::Role) { return false; }
bool Engine::functionReaches(const FunctionDecl *, api::Role) { return false; }
const Stmt *Engine::enclosingLoop(const Stmt *) { return nullptr; }
bool Engine::isTrainingLoop(const Stmt *) { return false; }
bool Engine::isPeriodicallyGuarded(const Stmt *, const Stmt *) { return false; }

} // namespace distlint
