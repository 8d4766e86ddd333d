// distlint test declarations: forwards to <torch/data.h>.
#pragma once
#include <torch/data.h>
