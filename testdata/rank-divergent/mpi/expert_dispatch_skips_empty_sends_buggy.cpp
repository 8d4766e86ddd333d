// Expert-parallel dispatch: each rank sends every peer the tokens routed
// to that peer's expert, and receives a slab from every peer. To save
// bandwidth a rank skips the send to a peer it routed nothing to, but the
// peer cannot know that and posts its receive anyway. Rank 0's tokens all
// prefer its own expert, so rank 1's receive from rank 0 never completes.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <vector>

static std::vector<int> route(int rank, int world, int tokens) {
  std::vector<int> expert_of(tokens);
  for (int t = 0; t < tokens; ++t)
    expert_of[t] = rank == 0 ? 0 : (t + rank) % world;
  return expert_of;
}

static void dispatch(const std::vector<int> &expert_of, int world) {
  const int slab = 4;
  std::vector<int> routed(world, 0);
  for (int e : expert_of)
    ++routed[e];
  std::vector<float> out(slab * world, 1.0f), in(slab * world, 0.0f);
  std::vector<MPI_Request> reqs;
  for (int peer = 0; peer < world; ++peer) {
    MPI_Request r;
    if (routed[peer] > 0) { // nothing routed there: skip the message
      MPI_Isend(&out[peer * slab], slab, MPI_FLOAT, peer, 7, MPI_COMM_WORLD, &r); // expect: distlint-rank-divergent-collective
      reqs.push_back(r);
    }
    MPI_Irecv(&in[peer * slab], slab, MPI_FLOAT, peer, 7, MPI_COMM_WORLD, &r);
    reqs.push_back(r);
  }
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  dispatch(route(rank, world, 6), world);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("dispatched\n");
  MPI_Finalize();
  return 0;
}
