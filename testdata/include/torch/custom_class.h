// distlint test declarations: torch::CustomClassHolder, the base of every
// c10d object handed around in intrusive_ptr.
#pragma once
#include <c10/util/intrusive_ptr.h>

namespace torch {
struct CustomClassHolder : c10::intrusive_ptr_target {};
} // namespace torch
