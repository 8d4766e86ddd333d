//===- LiveCompare.h - Compare the ranks' traces while the job runs -*- C++
//-*-===//
//
// The watchdog maps the traces of the other ranks of this launch (same run
// id, same trace directory: one node, or a directory all nodes share) read
// only, and lines their collectives up with this rank's by communicator and
// sequence number. The first disagreement — another operation, count,
// datatype, reduction, root or tensor shape at the same number, or a rank
// that ended (MPI_Finalize, exit, communicator destroyed) without issuing a
// collective another member issued, or two ranks each blocked in a collective
// of another communicator that waits only for the other — is written as a
// LiveMismatch record, printed with both call-sites, and with
// DISTLINT_RT_ABORT=1 ends the job.
// Nothing is sent on the job's communicators; the call path is untouched.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "TraceWriter.h"

#include <cstdint>

namespace distlint {
namespace rt {

/// One comparison step; the watchdog calls it on every poll.
void liveCompare(TraceWriter &Own, uint64_t NowNs);

/// Ranks compared with every other rank up to this many traces; beyond,
/// with the neighbours by global rank (a disagreement anywhere shows up
/// between some pair of neighbours).
constexpr unsigned kLiveAllPairsLimit = 16;

} // namespace rt
} // namespace distlint
