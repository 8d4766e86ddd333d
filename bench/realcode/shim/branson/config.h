// Stand-in for branson's CMake-generated config.h (bench/realcode only): an
// MPI build without OpenMP, CUDA, Metis, Silo or Caliper, one group.
#ifndef config_h_
#define config_h_
#include <mpi.h>
#define BRANSON_N_GROUPS 1
#define HOST_AND_DEVICE_FUNCTION
#define GPU_HOST_DEVICE
#define GPU_DEVICE
#define GPU_KERNEL
#define CONSTANT constexpr
#endif
