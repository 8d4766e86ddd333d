// Stand-in for RAJA's CMake-generated RAJA/config.hpp (bench/realcode only):
// the RAJA Performance Suite's src/common/OutputUtils.cpp needs none of it.
#pragma once
