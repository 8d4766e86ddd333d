//===- Shard.h - --shard K/N: one CI job's part of the TUs ------*- C++ -*-===//
//
// Every shard computes the same split from the same inputs: TUs sorted by
// last known cost (the result cache's record of the previous run; unknown
// TUs count as the median known cost, or 1), heaviest first, each given to
// the shard with the least total so far (ties: lowest shard, then path
// order). Shards must therefore see the same cache directory contents (CI:
// restore one cache snapshot in every job); without costs the split is by
// count, in path order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace distlint {

/// "K/N" with 1 <= K <= N. False and a one-line Error otherwise.
bool parseShard(llvm::StringRef Text, unsigned &Index, unsigned &Count,
                std::string &Error);

/// Indices into Files (sorted) that shard Index (1-based) of Count takes.
std::vector<size_t> selectShard(
    const std::vector<std::string> &Files, unsigned Index, unsigned Count,
    const std::function<std::optional<double>(const std::string &)> &Cost);

} // namespace distlint
