//===- FuzzTrace.cpp - distlint-rt's trace reader on mutated files --------===//
//
// The reader takes a path (traces are mmap'ed ring files), so the input is
// written to a private temporary file first. The trace is read, then merged
// with a copy of itself as a second rank, as `distlint-rt report` does.
//
//===----------------------------------------------------------------------===//
#include "Harnesses.h"

#include "Merge.h"
#include "TraceReader.h"

#include <climits>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace distlint::fuzz {

int traceReader(const uint8_t *Data, size_t Size) {
  static const std::string Path =
      "/tmp/distlint-fuzz-trace-" + std::to_string(getpid()) + ".trace";
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    return 0;
  std::fwrite(Data, 1, Size, F);
  std::fclose(F);
  rt::RankTrace T;
  std::string Error;
  if (rt::readTraceFile(Path, T, Error)) {
    rt::RankTrace Other = T;
    // Another rank than T's, also when the file claims the largest one.
    Other.Rank = T.Rank == INT_MAX ? T.Rank - 1 : T.Rank + 1;
    std::vector<rt::RankTrace> Ranks = {std::move(T), std::move(Other)};
    rt::analyze(std::move(Ranks), nullptr);
  }
  std::remove(Path.c_str());
  return 0;
}

} // namespace distlint::fuzz
