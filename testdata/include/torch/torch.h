// distlint test declarations: the LibTorch umbrella header.
#pragma once
#include <torch/cuda.h>
#include <torch/data.h>
#include <torch/nn.h>
#include <torch/optim.h>
#include <torch/serialize.h>
#include <torch/types.h>
#include <torch/utils.h>
#include <torch/version.h>
