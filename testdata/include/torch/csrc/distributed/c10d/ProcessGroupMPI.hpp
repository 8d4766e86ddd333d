// distlint test declarations: c10d::ProcessGroupMPI.
#pragma once
#include <mpi.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <vector>
#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/distributed/c10d/Backend.hpp>
#define DISTLINT_MPI_BASE Backend
#else
#define DISTLINT_MPI_BASE ProcessGroup
#endif

namespace c10d {

class TORCH_API ProcessGroupMPI : public DISTLINT_MPI_BASE {
public:
  explicit ProcessGroupMPI(int rank, int size, MPI_Comm pgComm);
  ~ProcessGroupMPI() override;

  void abort();
  const std::string getBackendName() const override;

  DISTLINT_C10D_COLLECTIVES(, override);

  /// Creates a process group over MPI_COMM_WORLD or a subset of its ranks.
  static c10::intrusive_ptr<ProcessGroupMPI>
  createProcessGroupMPI(std::vector<int> ranks = {});
};

} // namespace c10d

#undef DISTLINT_MPI_BASE
