//===- DataLoaders.h - Samplers, loaders and epochs -------------*- C++ -*-===//
//
// LibTorch facts (TorchApi.cpp rows, LibTorch 1.13 and 2.x alike):
// DistributedRandomSampler::reset() shuffles with std::mt19937(epoch_), the
// data loader calls reset() at the start of every pass, and
// make_data_loader(dataset, sampler, options) keeps a private copy of the
// sampler. So the order changes between epochs only if set_epoch(epoch) is
// called on the sampler *before* the loader copies it, in every epoch.
//
// The questions here follow a make_data_loader call to the loader it fills
// (a local, or a member of a trainer class), to where that loader is
// iterated (range-for, begin(), helpers that iterate a parameter, any method
// of the class), and relate both to the loops around them in their function
// or in the functions that call it (Loops.h: loopsAround). Whether set_epoch
// runs on every path of an epoch before the copy is a must-happen data-flow
// over the CFGs along that call chain (ObjectFlow.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"
#include "engine/loops/Loops.h"
#include "engine/objects/ObjectRef.h"

#include <optional>

namespace distlint {

struct SetEpochCall {
  const clang::CallExpr *Call = nullptr;
  const clang::Expr *Epoch = nullptr; ///< The argument (null if defaulted).
};

struct LoaderFacts {
  const clang::CallExpr *Factory = nullptr;
  /// The distributed sampler class the loader copies (null: the loader's
  /// sampler is not a LibTorch distributed sampler, e.g. a user wrapper
  /// that shares one by reference).
  const clang::CXXRecordDecl *SamplerClass = nullptr;
  /// make_data_loader<Sampler>(dataset, options): the factory builds the
  /// sampler itself as Sampler(dataset.size()).
  bool SamplerBuiltByFactory = false;
  /// Does the sampler reshuffle by epoch (set_epoch matters)?
  bool Shuffles = false;
  /// The sampler object handed over (null: a temporary).
  ObjectRef Sampler;
  /// Where the loader is kept (null: iterated directly).
  ObjectRef Holder;
  /// Statements that start a pass over the loader.
  llvm::SmallVector<const clang::Stmt *, 4> Iterations;
};

/// The loader a DataLoaderFactory call builds and where it is iterated.
std::optional<LoaderFacts> loaderFacts(Engine &E,
                                       const clang::CallExpr *Factory);

/// set_epoch calls on the sampler O (or its aliases), in any function that
/// can use it.
std::vector<SetEpochCall> setEpochCalls(Engine &E, ObjectRef O);

struct EpochVerdict {
  enum Kind {
    Fine,
    /// Built once, iterated in every iteration of EpochLoop.
    BuiltOnce,
    /// Rebuilt every epoch from a sampler that is a temporary.
    RebuiltFromTemporary,
    /// Rebuilt every epoch; set_epoch(epoch) does not run before the copy.
    RebuiltWithoutSetEpoch,
  } TheKind = Fine;
  const clang::Stmt *EpochLoop = nullptr;

  enum CallIssue {
    /// Called once, outside the epoch loop.
    Once,
    /// The loader never sees this sampler again.
    NoEffect,
    /// The epoch argument is the same every epoch.
    ConstantEpoch,
    /// Called after the loader copied the sampler (a varying epoch).
    AfterCopy,
    /// Called before the copy, but under a rank-dependent branch: the
    /// other ranks never reseed.
    OnSomeRanks,
  };
  llvm::SmallVector<std::pair<SetEpochCall, CallIssue>, 2> Calls;
  /// OnSomeRanks: the rank-dependent branch, per call (same order).
  llvm::SmallVector<const clang::Stmt *, 2> RankBranches;
  /// RebuiltWithoutSetEpoch: set_epoch calls on a copy of the sampler that
  /// a lambda captured by value (`[s = sampler_] { s.set_epoch(e); }`).
  llvm::SmallVector<const clang::CallExpr *, 1> SeedsACopy;
  /// RebuiltWithoutSetEpoch: false when a set_epoch after the copy already
  /// explains the problem (report the calls only).
  bool ReportFactory = true;
};

/// Does every epoch of the loader in F see a new order?
EpochVerdict epochVerdict(Engine &E, const LoaderFacts &F);

/// Samplers whose shards differ in length between ranks under a loop that
/// issues a collective per batch.
struct UnevenShards {
  const clang::Expr *SamplerSite = nullptr;
  const clang::Expr *Collective = nullptr;
  UniformityAnswer Size;
  bool NoDuplicates = false;
};
std::optional<UnevenShards> unevenShards(Engine &E, const LoaderFacts &F);

} // namespace distlint
