// NOLINT forms as clang-tidy reads them. Each function has one rank-divergent
// barrier; the comment says whether it must still be reported.
#include <mpi.h>

static int rank_of() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void plain_nolint() {
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD); // NOLINT
}

void named_nolint() {
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD); // NOLINT(distlint-rank-divergent-collective)
}

void glob_nolint() {
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD); // NOLINT(bugprone-*, distlint-rank-*)
}

void other_rule_nolint_reported() {
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD); // NOLINT(distlint-missing-timeout) REPORTED
}

void negative_glob_ignored_reported() {
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD); // NOLINT(-distlint-*) REPORTED
}

void space_before_paren_silences_all() {
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD); // NOLINT (whatever)
}

void next_line() {
  // NOLINTNEXTLINE(distlint-rank-divergent-collective)
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD);
}

void next_line_too_far_reported() {
  // NOLINTNEXTLINE(distlint-rank-divergent-collective)

  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD); // REPORTED
}

// NOLINTBEGIN(distlint-rank-divergent-collective)
void in_block() {
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD);
}
// NOLINTEND(distlint-rank-divergent-collective)

void after_block_reported() {
  if (rank_of() == 0) MPI_Barrier(MPI_COMM_WORLD); // REPORTED
}
