//===- ProjectFacts.h - What other TUs' bodies say of a function -*- C++
//-*-===//
//
// A whole-project run (driver/ProjectIndex.h) summarizes every function a TU
// defines (engine/summaries/Exports.h) and hands each TU the facts of the
// functions it calls without their bodies: a wrapper in comm.cpp issues
// MPI_Allreduce, `Comm::rank()` returns the rank, `wait_gpu()` waits for the
// device. ApiIndex turns them into rows of Family::Project, matched by the
// function's USR (never by name), so the engine treats such a call as it
// treats the API call inside. A function nobody summarized stays unknown.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ApiTable.h"

#include <map>
#include <string>
#include <vector>

namespace distlint {
namespace api {

/// One fact of one function, as a row would state it.
struct ProjectFact {
  Role TheRole = Role::Collective;
  /// The parameter the fact is about: written with the rank (RankSource
  /// through a pointer), or the communicator every collective uses.
  int Out = -1, Comm = -1;
  /// A collective's parameter whose buffer holds the agreed result after
  /// the call (the wrapper passes it as the receive buffer).
  int Recv = -1;
  /// The API call inside that makes it so ("MPI_Allreduce"), for messages.
  std::string What;
  /// Where that call is (absolute path, 1-based line).
  std::string File;
  unsigned Line = 0;

  bool operator==(const ProjectFact &O) const {
    return TheRole == O.TheRole && Out == O.Out && Comm == O.Comm &&
           Recv == O.Recv && What == O.What && File == O.File && Line == O.Line;
  }
};

/// A function defined in one TU, with its facts.
struct ProjectFunction {
  std::string Usr;
  std::string Name; ///< Qualified, for messages.
  /// USRs of the virtual methods it overrides (transitively): a call
  /// through one of them may run it.
  std::vector<std::string> Overrides;
  std::vector<ProjectFact> Facts;

  bool operator==(const ProjectFunction &O) const {
    return Usr == O.Usr && Name == O.Name && Overrides == O.Overrides &&
           Facts == O.Facts;
  }
};

/// The facts one TU gets: per USR of a function it calls without a body.
struct ProjectFacts {
  struct Entry {
    std::string Name;
    std::vector<ProjectFact> Facts;
  };
  std::map<std::string, Entry> ByUsr;
  bool empty() const { return ByUsr.empty(); }
};

/// The USR of a declaration ("c:@N@mt@S@Comm@F@rank#1"); empty if none.
std::string usrOf(const clang::Decl *D);

} // namespace api
} // namespace distlint
