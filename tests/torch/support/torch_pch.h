// Precompiled once per build by tests/torch/torch_stage.py and force-included
// into every LibTorch program it builds for the Gloo run proofs: parsing
// <torch/torch.h> and instantiating its templates dominates the compile time
// of each small program (~15 s without, ~3 s with).
#pragma once
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/Ops.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
