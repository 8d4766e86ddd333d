// distlint test declarations: the namespace set-up of the real
// c10/macros/Macros.h (at:: sees c10::, at::cuda:: sees c10::cuda::).
#pragma once

#define TORCH_API
#define C10_API
#define C10_CUDA_API
#define TORCH_CUDA_CPP_API
#define C10_DEPRECATED [[deprecated]]

namespace c10 {}
namespace c10 {
namespace cuda {}
} // namespace c10
namespace at {
using namespace c10;
}
namespace at {
namespace cuda {
using namespace c10::cuda;
}
} // namespace at
