// distlint test declarations: torch::save / torch::load.
#pragma once
#include <torch/types.h>
#include <utility>

namespace torch {
template <typename Value, typename... SaveToArgs>
void save(const Value &value, SaveToArgs &&...args);
template <typename Value, typename... LoadFromArgs>
void load(Value &value, LoadFromArgs &&...args);
} // namespace torch
