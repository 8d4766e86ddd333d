// distlint test declarations: LibTorch version macros.
//
// The project's declarations model two LibTorch generations. Compile with
// -DDISTLINT_TORCH_2X to get the 2.x c10d layout (collectives on c10d::Backend,
// ProcessGroupGloo/NCCL deriving from Backend, ProcessGroup as the dispatching
// wrapper with getBackend/setBackend); without it the headers follow Debian's
// LibTorch 1.13. Code that must build against both checks TORCH_VERSION_MAJOR,
// exactly as it would against the real headers.
#pragma once

#ifdef DISTLINT_TORCH_2X
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 1
#define TORCH_VERSION_PATCH 0
#define TORCH_VERSION "2.1.0"
#else
#define TORCH_VERSION_MAJOR 1
#define TORCH_VERSION_MINOR 13
#define TORCH_VERSION_PATCH 0
#define TORCH_VERSION "1.13.0"
#endif
