// distlint test declarations: the ATen umbrella header.
#pragma once
#include <ATen/Functions.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/Scalar.h>
#include <c10/util/intrusive_ptr.h>
