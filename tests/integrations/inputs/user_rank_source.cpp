// Input of compare_tidy.py: the rank comes from the project's own API, which
// distlint only knows from configuration (.distlint.yaml `RankSources` for
// the binary, CheckOptions `distlint.RankSources` for the clang-tidy plugin).
#include <mpi.h>

namespace cluster {
int whoami();
}

void checkpoint_step() {
  if (cluster::whoami() == 0)
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
}
