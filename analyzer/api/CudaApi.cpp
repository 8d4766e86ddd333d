//===- CudaApi.cpp - CUDA runtime ------------------------------------------===//
#include "ApiTable.h"
#include "CopyKinds.h"

namespace distlint {
namespace api {
namespace {

constexpr ArgRoles A;
constexpr Family F = Family::Cuda;

const ApiEntry Rows[] = {
    // Explicit synchronization.
    {F, Role::DeviceSync, "cudaDeviceSynchronize", A},
    {F, Role::StreamSync, "cudaStreamSynchronize", A.stream(0)},
    {F, Role::EventSync, "cudaEventSynchronize", A},

    // Calls that block the host on queued device work. cudaMemcpy is
    // synchronous; device-to-host (Flag = cudaMemcpyKind) also reads device
    // data on the host. For copies, Recv is the destination and Send the
    // source.
    {F, Role::HostWaitOnDevice, "cudaMemcpy",
     A.recv(0).send(1).count(2).flag(3)},
    {F, Role::ImplicitSync, "cudaMemcpy", A.recv(0).send(1).count(2).flag(3),
     "when kind is cudaMemcpyDeviceToHost or cudaMemcpyDefault"},
    // The cudaMemcpyKind values that copy device data to the host.
    {F, Role::ImplicitSync, "cudaMemcpyDeviceToHost", A, "device to host"},
    {F, Role::ImplicitSync, "cudaMemcpyDefault", A, "inferred direction"},
    // Copies queued on a stream: no host wait, but the destination gets the
    // source's values (read on the host after a stream or event sync).
    {F, Role::AsyncCopy, "cudaMemcpyAsync",
     A.recv(0).send(1).count(2).flag(3).stream(4)},
    {F, Role::HostWaitOnDevice, "cudaMemset", A},
    // Fills: the buffer holds the value in every byte.
    {F, Role::Fill, "cudaMemset", A.recv(0).value(1).count(2)},
    {F, Role::Fill, "cudaMemsetAsync", A.recv(0).value(1).count(2).stream(3)},
    {F, Role::HostWaitOnDevice, "cudaFree", A,
     "cudaFree synchronizes the device"},

    // Device choice.
    {F, Role::DeviceSelect, "cudaSetDevice", A},
    {F, Role::UniformValue, "cudaGetDeviceCount", A.out(0)},
    {F, Role::RankSource, "cudaGetDevice", A.out(0),
     "current device (usually the local rank)"},

    // Results that depend on timing.
    {F, Role::LocalDataSource, "cudaStreamQuery", A.stream(0),
     "completion state"},
    {F, Role::LocalDataSource, "cudaEventQuery", A, "completion state"},
    {F, Role::LocalDataSource, "cudaEventElapsedTime", A.out(0),
     "local timing"},
    // What else this process (and others sharing the device) allocated.
    {F, Role::LocalDataSource, "cudaMemGetInfo", A.out(0),
     "free device memory"},
    {F, Role::Clock, "cudaEventElapsedTime", A.out(0)},

    // Device work queued on a stream: kernels and cuBLAS (cublas_v2.h
    // names the _v2 entry points through macros).
    {F, Role::DeviceLaunch, "cudaLaunchKernel", A.stream(5)},
    {F, Role::DeviceLaunch, "cublasSgemm_v2", A},
    {F, Role::DeviceLaunch, "cublasDgemm_v2", A},
    {F, Role::DeviceLaunch, "cublasSaxpy_v2", A},

    // Host memory the device reads or writes directly.
    {F, Role::HostVisibleAlloc, "cudaMallocHost", A.out(0)},
    {F, Role::HostVisibleAlloc, "cudaHostAlloc", A.out(0)},
    {F, Role::HostVisibleAlloc, "cudaMallocManaged", A.out(0)},
};

const CopyKind Kinds[] = {
    {"cudaMemcpyHostToHost", false, false},
    {"cudaMemcpyHostToDevice", false, true},
    {"cudaMemcpyDeviceToHost", true, false},
    {"cudaMemcpyDeviceToDevice", true, true},
    {"cudaMemcpyDefault", true, true}, // Inferred from the pointers.
};

} // namespace

llvm::ArrayRef<ApiEntry> cudaTable() { return Rows; }
llvm::ArrayRef<CopyKind> cudaCopyKinds() { return Kinds; }

} // namespace api
} // namespace distlint
