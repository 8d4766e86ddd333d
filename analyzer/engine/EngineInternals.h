//===- EngineInternals.h - What the engine's own parts share ---*- C++ -*-===//
//
// For code behind the Engine facade (collectives, divergence): the analysis
// manager (Engine::P: analyze, prepare, Tu, UserFunctions), the
// per-function results (FunctionResult: Facts, BranchTaint, Summary,
// ThrowTaint, liveControlDependencies), the abstract value (Taint) and the
// uniformity analysis (eval, stateBefore). Rules use Engine.h only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/AnalysisManager.h"
#include "engine/ast/AstHelpers.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/cfg/FailStop.h"
#include "engine/lattice/Taint.h"
#include "engine/uniformity/UniformityAnalysis.h"
