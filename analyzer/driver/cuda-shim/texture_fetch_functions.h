// distlint's stand-in for a header CUDA 13 removed (texture references are
// gone; texture objects live in texture_indirect_functions.h). Clang 19's
// __clang_cuda_runtime_wrapper.h still includes it. distlint searches this
// directory after every other (-idirafter), only in CUDA translation units,
// so a toolkit that has the real header uses it.
#pragma once
