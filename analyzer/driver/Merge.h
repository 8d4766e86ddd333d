//===- Merge.h - `distlint merge`: one report from many shards --*- C++ -*-===//
//
//   distlint merge a.json b.json ... [--format=text|json|sarif]
//                  [--output <file>] [--fail-on=<severity>|never]
// Reads --format=json reports (e.g. of `--shard K/N` jobs), keeps every
// finding with its fingerprint, drops duplicates (a header's finding seen
// by TUs of several shards), and writes one report. Exit status as the
// analysis would have had: 0, 1 (findings), 2 (bad input or file errors).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace distlint {

/// argv[0] is "merge".
int runMerge(int argc, const char **argv);

} // namespace distlint
