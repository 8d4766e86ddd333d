// Stand-in for the RAJA Performance Suite's CMake-generated rajaperf_config.hpp
// (bench/realcode only). RAJA_PERFSUITE_ENABLE_MPI comes from the manifest's flags.
#pragma once
#include <string>
