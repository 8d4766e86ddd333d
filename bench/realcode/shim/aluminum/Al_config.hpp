// Stand-in for Aluminum's CMake-generated Al_config.hpp (bench/realcode
// only): the MPI backend alone (no CUDA, NCCL, host-transfer or Caliper).
#pragma once
#define AL_VERSION_MAJOR "1"
#define AL_VERSION_MINOR "0"
#define AL_VERSION_PATCH "0"
#define AL_VERSION "1.0.0"
#define AL_GIT_VERSION "unknown"
#define AL_CALI_MARK_SCOPE(...) ((void)0)
