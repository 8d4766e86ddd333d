//===- SpeedOptions.h - The speed options of the command line ---*- C++ -*-===//
//
// --no-preamble-sharing, --cache-dir, --no-cache, --no-project-index,
// --cache-size,
// --remote-storage and --shard (issue 14), registered in the CLI's option
// category (cliCategory) so --help lists them with the others.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Runner.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace distlint {

/// The one category of every distlint option.
llvm::cl::OptionCategory &cliCategory();

/// Copies the parsed speed options into Opts. False + a one-line Error on
/// a bad value.
bool applySpeedOptions(DriverOptions &Opts, std::string &Error);

} // namespace distlint
