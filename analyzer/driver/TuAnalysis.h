//===- TuAnalysis.h - Parse and analyze one translation unit ----*- C++ -*-===//
//
// What a worker (a child process, Isolation.h, or a thread with
// --no-isolation) does for one TU: parse it with its resolved command,
// optionally on a shared precompiled preamble (Preamble.h), run the rules,
// and return everything as a TranslationUnitResult, including the files the
// parse read (the result cache's include closure, stored by the parent).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "speed/Preamble.h"
#include "Runner.h"
#include "input/Config.h"
#include "input/ResultSerialization.h"

#include <string>

namespace distlint {

/// The preamble a TU parses on, if any: its shape and the store that holds
/// the built preamble on disk.
struct TuPreamble {
  const PreambleShape *Shape = nullptr;
  PreambleStore *Store = nullptr;
};

/// Analyzes Job. Recover: catch a crash in-process (CrashRecoveryContext)
/// when the TU does not run in its own process, where letting it die is
/// better. Preamble.Store null: parse every include.
TranslationUnitResult analyzeTu(const CompileJob &Job,
                                const DriverOptions &Opts,
                                const std::string &ProjectRoot,
                                ConfigResolver &Configs, bool Recover,
                                TuPreamble Preamble);

/// Builds the preamble Preamble.Shape of Job (with Job's invocation) into
/// Preamble.Store's directory, where the TUs that share it load it from.
/// Failure (a missing header, a crash caught with Recover) leaves nothing
/// there: those TUs then parse normally and report their own errors.
void buildSharedPreamble(const CompileJob &Job, const DriverOptions &Opts,
                         TuPreamble Preamble, bool Recover);

} // namespace distlint
