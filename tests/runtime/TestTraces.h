//===- TestTraces.h - Synthetic rank traces for unit tests -----*- C++ -*-===//
#pragma once

#include "Merge.h"
#include "TraceReader.h"

#include <cstdint>
#include <string>

namespace distlint {
namespace rt {
namespace test {

/// The fake program every synthetic frame belongs to.
inline const char *fakeModule() { return "/fake/bin/train"; }

/// A frame at a made-up offset; pair it with a Symbolizer::addResolved.
inline PackedFrame frameAt(uint64_t Offset) { return packFrame(0, Offset); }

inline RankTrace rankTrace(int Rank, int Pid = 0) {
  RankTrace T;
  T.Rank = Rank;
  T.Pid = Pid ? Pid : 1000 + Rank;
  T.Path = "rank" + std::to_string(Rank) + ".trace";
  T.Capacity = 65536;
  T.StartRealtimeNs = 1000000000ull;
  T.StartMonotonicNs = 0;
  T.Modules.push_back(fakeModule());
  T.Flags = HeaderExited;
  return T;
}

struct OpBuilder {
  Record R;
  OpBuilder(OpCode Op, uint64_t Comm, int CommRank, int CommSize) {
    R.Kind = RecordKind::Op;
    R.Op = Op;
    R.ApiId = opInfo(Op).ApiId;
    R.CommId = Comm;
    R.CommRank = CommRank;
    R.CommSize = CommSize;
    R.State = StateReturned | StateCompleted;
  }
  OpBuilder &seq(uint64_t S) { R.Seq = S; return *this; }
  OpBuilder &count(uint64_t C) { R.Count = C; return *this; }
  OpBuilder &type(int32_t T) { R.DataType = T; return *this; }
  OpBuilder &red(int32_t O) { R.RedOp = O; return *this; }
  OpBuilder &peer(int32_t P) { R.Peer = P; return *this; }
  OpBuilder &at(uint64_t Offset) { R.Frames[0] = frameAt(Offset); return *this; }
  OpBuilder &caller(uint64_t Offset) { R.Frames[1] = frameAt(Offset); return *this; }
  OpBuilder &state(uint32_t S) { R.State = S; return *this; }
  OpBuilder &kind(RecordKind K) { R.Kind = K; return *this; }
  OpBuilder &time(uint64_t Ns) { R.StartNs = Ns; R.EndNs = Ns + 1000; return *this; }
  OpBuilder &aux(uint64_t A) { R.Aux = A; return *this; }
};

/// Appends R to T with the next slot number.
inline const Record &append(RankTrace &T, Record R) {
  R.Slot = T.Records.empty() ? 0 : T.Records.back().Slot + 1;
  T.Head = R.Slot + 1;
  T.Records.push_back(R);
  return T.Records.back();
}

} // namespace test
} // namespace rt
} // namespace distlint
