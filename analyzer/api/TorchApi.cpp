//===- TorchApi.cpp - LibTorch tensors, training, devices, data loading ---===//
//
// Names are where LibTorch declares them: at::Tensor (torch::Tensor) methods
// on at::Tensor or at::TensorBase, device names in c10 (torch::Device is
// c10::Device, torch::kCUDA is c10::kCUDA), factories in torch:: and at::.
//
//===----------------------------------------------------------------------===//
#include "ApiTable.h"

namespace distlint {
namespace api {
namespace {

constexpr ArgRoles A;
constexpr Family F = Family::Torch;

const ApiEntry Rows[] = {
    // Explicit synchronization.
    {F, Role::DeviceSync, "torch::cuda::synchronize", A},
    {F, Role::DeviceSync, "c10::cuda::device_synchronize", A},
    {F, Role::StreamSync, "c10::cuda::CUDAStream::synchronize", A},
    {F, Role::StreamSync, "c10::cuda::stream_synchronize", A.stream(0)},
    {F, Role::EventSync, "at::cuda::CUDAEvent::synchronize", A},
    // Releasing the cached blocks calls cudaFree, which waits for the device.
    {F, Role::DeviceSync, "c10::cuda::CUDACachingAllocator::emptyCache", A},

    // Implicit synchronization: the host reads device data.
    {F, Role::ImplicitSync, "at::Tensor::item", A},
    {F, Role::ImplicitSync, "at::Tensor::cpu", A},
    {F, Role::ImplicitSync, "at::Tensor::to", A,
     "when the target device is the CPU"},
    {F, Role::ImplicitSync, "at::TensorBase::to", A,
     "when the target device is the CPU"},
    {F, Role::ImplicitSync, "at::Tensor::is_nonzero", A},
    {F, Role::ImplicitSync, "at::Tensor::equal", A},
    {F, Role::ImplicitSync, "at::Tensor::allclose", A},
    {F, Role::ImplicitSync, "at::equal", A},
    {F, Role::ImplicitSync, "at::allclose", A},
    {F, Role::ImplicitSync, "at::operator<<", A, "printing a tensor"},
    {F, Role::ImplicitSync, "at::print", A, "printing a tensor"},

    // Host reads of tensor values: rank-local data unless made uniform.
    {F, Role::TensorRead, "at::Tensor::item", A},
    {F, Role::TensorRead, "at::TensorBase::data_ptr", A},
    {F, Role::TensorRead, "at::Tensor::is_nonzero", A},
    {F, Role::TensorRead, "at::Tensor::equal", A},
    {F, Role::TensorRead, "at::Tensor::allclose", A},
    {F, Role::TensorRead, "at::equal", A},
    {F, Role::TensorRead, "at::allclose", A},

    // Tensor shape and metadata: the same on every rank when the tensor's
    // shape is, whatever its values.
    {F, Role::ShapeQuery, "at::TensorBase::numel", A},
    {F, Role::ShapeQuery, "at::TensorBase::size", A.dim(0)},
    {F, Role::ShapeQuery, "at::TensorBase::sizes", A},
    {F, Role::ShapeQuery, "at::TensorBase::dim", A},
    {F, Role::ShapeQuery, "at::TensorBase::ndimension", A},
    {F, Role::ShapeQuery, "at::TensorBase::nbytes", A},
    {F, Role::ShapeQuery, "at::TensorBase::element_size", A},
    {F, Role::ShapeQuery, "at::TensorBase::scalar_type", A},
    {F, Role::ShapeQuery, "at::TensorBase::device", A},
    {F, Role::ShapeQuery, "at::TensorBase::is_cuda", A},
    {F, Role::ShapeQuery, "at::TensorBase::is_cpu", A},
    {F, Role::ShapeQuery, "at::TensorBase::defined", A},
    {F, Role::ShapeQuery, "c10::ArrayRef::size", A},

    // Results of their input's shape: copies, conversions (dtype, device,
    // layout), element-wise functions of one tensor, in-place updates, and
    // the *_like factories. Operators between two tensors may broadcast to
    // another shape and are not listed.
    {F, Role::SameShape, "at::Tensor::clone", A},
    {F, Role::SameShape, "at::Tensor::to", A},
    {F, Role::SameShape, "at::TensorBase::to", A},
    {F, Role::SameShape, "at::Tensor::contiguous", A},
    {F, Role::SameShape, "at::Tensor::detach", A},
    {F, Role::SameShape, "at::Tensor::cpu", A},
    {F, Role::SameShape, "at::Tensor::cuda", A},
    {F, Role::SameShape, "at::Tensor::abs", A},
    {F, Role::SameShape, "at::Tensor::sqrt", A},
    {F, Role::SameShape, "at::Tensor::exp", A},
    {F, Role::SameShape, "at::Tensor::log", A},
    {F, Role::SameShape, "at::Tensor::clamp", A},
    {F, Role::SameShape, "at::Tensor::clamp_min", A},
    {F, Role::SameShape, "at::Tensor::clamp_max", A},
    {F, Role::SameShape, "at::Tensor::relu", A},
    {F, Role::SameShape, "at::Tensor::sigmoid", A},
    {F, Role::SameShape, "at::Tensor::tanh", A},
    {F, Role::SameShape, "at::Tensor::neg", A},
    {F, Role::SameShape, "at::Tensor::reciprocal", A},
    {F, Role::SameShape, "at::Tensor::square", A},
    {F, Role::SameShape, "at::Tensor::sign", A},
    {F, Role::SameShape, "at::Tensor::floor", A},
    {F, Role::SameShape, "at::Tensor::ceil", A},
    {F, Role::SameShape, "at::Tensor::round", A},
    {F, Role::SameShape, "at::Tensor::nan_to_num", A},
    {F, Role::SameShape, "at::Tensor::zero_", A},
    {F, Role::SameShape, "at::Tensor::fill_", A},
    {F, Role::SameShape, "at::Tensor::copy_", A},
    {F, Role::SameShape, "at::Tensor::mul_", A},
    {F, Role::SameShape, "at::Tensor::add_", A},
    {F, Role::SameShape, "at::Tensor::sub_", A},
    {F, Role::SameShape, "at::Tensor::div_", A},
    {F, Role::SameShape, "at::empty_like", A},
    {F, Role::SameShape, "at::zeros_like", A},
    {F, Role::SameShape, "at::ones_like", A},
    {F, Role::SameShape, "at::full_like", A},
    {F, Role::SameShape, "at::rand_like", A},
    {F, Role::SameShape, "at::randn_like", A},
    {F, Role::SameShape, "torch::empty_like", A},
    {F, Role::SameShape, "torch::zeros_like", A},
    {F, Role::SameShape, "torch::ones_like", A},
    {F, Role::SameShape, "torch::full_like", A},
    {F, Role::SameShape, "torch::rand_like", A},
    {F, Role::SameShape, "torch::randn_like", A},

    // Reductions of every element to one: a 0-dim tensor, whatever the
    // input's shape (the overloads given a dimension are told apart by
    // their parameters: resultShapeKey).
    {F, Role::FullReduction, "at::Tensor::sum", A},
    {F, Role::FullReduction, "at::Tensor::mean", A},
    {F, Role::FullReduction, "at::Tensor::norm", A},
    {F, Role::FullReduction, "at::Tensor::prod", A},
    {F, Role::FullReduction, "at::Tensor::max", A},
    {F, Role::FullReduction, "at::Tensor::min", A},
    {F, Role::FullReduction, "at::Tensor::std", A},
    {F, Role::FullReduction, "at::Tensor::var", A},
    {F, Role::FullReduction, "at::sum", A},
    {F, Role::FullReduction, "at::mean", A},
    {F, Role::FullReduction, "at::norm", A},

    // Results as long as the number of elements some values select: the
    // shape is as rank-local as those values.
    {F, Role::ShapeFromValues, "at::Tensor::nonzero", A},
    {F, Role::ShapeFromValues, "at::Tensor::argwhere", A},
    {F, Role::ShapeFromValues, "at::Tensor::masked_select", A.value(0)},
    {F, Role::ShapeFromValues, "at::nonzero", A.value(0)},
    {F, Role::ShapeFromValues, "at::masked_select", A.value(1)},
    // One count per value up to the largest one the rank holds; a length
    // passed (minlength, Count) is the caller's bound and sets it instead.
    {F, Role::ShapeFromValues, "at::bincount", A.value(0).count(2)},
    {F, Role::ShapeFromValues, "at::Tensor::bincount", A.count(1)},

    // Integer arguments that set a result's shape (int-array sizes such as
    // zeros({n}) or view({-1, n}) are recognised by their type). A tensor's
    // shape decides whether collectives pair up; its values do not.
    {F, Role::SizeArgument, "at::Tensor::narrow", A.dim(0).count(2)},
    {F, Role::SizeRange, "at::Tensor::slice", A.dim(0).begin(1).end(2)},
    {F, Role::SizeRange, "at::slice", A.dim(1).begin(2).end(3)},
    {F, Role::SizeArgument, "at::bincount", A.count(2)},
    {F, Role::SizeArgument, "at::Tensor::bincount", A.count(1)},
    {F, Role::SizeArgument, "at::randperm", A.count(0)},
    {F, Role::SizeArgument, "torch::randperm", A.count(0)},
    {F, Role::SizeArgument, "at::arange", A.count(0)},
    {F, Role::SizeArgument, "torch::arange", A.count(0)},

    // Module classes (and the holders that give access to one).
    {F, Role::ModuleType, "torch::nn::Module", A},
    {F, Role::ModuleType, "torch::nn::ModuleHolder", A},

    // Training steps.
    {F, Role::TrainingStep, "at::Tensor::backward", A, "backward pass"},
    {F, Role::TrainingStep, "torch::autograd::backward", A, "backward pass"},
    {F, Role::TrainingStep, "torch::optim::Optimizer::step", A,
     "optimizer step"},
    {F, Role::TrainingStep, "torch::nn::Module::forward", A, "module forward"},
    {F, Role::TrainingStep, "torch::nn::ModuleHolder::operator()", A,
     "module forward"},

    // Random values: each rank draws its own.
    {F, Role::LocalDataSource, "torch::rand", A, "random tensor"},
    // Serialized data: Send is the file (path or stream), Out the value.
    {F, Role::LocalDataSource, "torch::load", A.out(0).send(1),
     "data loaded from a file"},
    {F, Role::LocalDataSource, "torch::randn", A, "random tensor"},
    {F, Role::LocalDataSource, "torch::randint", A, "random tensor"},
    {F, Role::LocalDataSource, "torch::randperm", A, "random tensor"},
    {F, Role::LocalDataSource, "torch::rand_like", A, "random tensor"},
    {F, Role::LocalDataSource, "torch::randn_like", A, "random tensor"},
    {F, Role::LocalDataSource, "torch::randint_like", A, "random tensor"},
    {F, Role::LocalDataSource, "at::rand", A, "random tensor"},
    {F, Role::LocalDataSource, "at::randn", A, "random tensor"},
    {F, Role::LocalDataSource, "at::randint", A, "random tensor"},
    {F, Role::LocalDataSource, "at::randperm", A, "random tensor"},
    {F, Role::LocalDataSource, "at::rand_like", A, "random tensor"},
    {F, Role::LocalDataSource, "at::randn_like", A, "random tensor"},
    {F, Role::LocalDataSource, "at::randint_like", A, "random tensor"},
    {F, Role::LocalDataSource, "at::normal", A, "random tensor"},
    {F, Role::LocalDataSource, "at::bernoulli", A, "random tensor"},
    // In-place random fills make the receiver rank-local.
    {F, Role::LocalDataSource, "at::Tensor::uniform_", A, "random tensor"},
    {F, Role::LocalDataSource, "at::Tensor::normal_", A, "random tensor"},
    {F, Role::LocalDataSource, "at::Tensor::random_", A, "random tensor"},
    {F, Role::LocalDataSource, "at::Tensor::bernoulli_", A, "random tensor"},

    // Device choice. A device chosen at run time counts as possibly CUDA.
    {F, Role::DeviceSelect, "c10::Device::Device", A},
    {F, Role::DeviceSelect, "c10::kCUDA", A,
     RowFacts().device(DeviceType::Cuda)},
    {F, Role::DeviceSelect, "c10::DeviceType::CUDA", A,
     RowFacts().device(DeviceType::Cuda)},
    {F, Role::DeviceSelect, "c10::kCPU", A, RowFacts().device(DeviceType::Cpu)},
    {F, Role::DeviceSelect, "c10::DeviceType::CPU", A,
     RowFacts().device(DeviceType::Cpu)},
    {F, Role::DeviceSelect, "at::Tensor::cuda", A,
     RowFacts().device(DeviceType::Cuda)},
    {F, Role::DeviceSelect, "c10::cuda::set_device", A,
     RowFacts().device(DeviceType::Cuda)},
    {F, Role::DeviceSelect, "c10::cuda::CUDAGuard::CUDAGuard", A,
     RowFacts().device(DeviceType::Cuda)},
    {F, Role::DeviceSelect, "torch::cuda::is_available", A, "runtime choice"},
    {F, Role::UniformValue, "torch::cuda::is_available", A},
    {F, Role::UniformValue, "torch::cuda::device_count", A},
    {F, Role::UniformValue, "c10::cuda::device_count", A},

    // Samplers. Constructor rows give argument positions: (size,
    // num_replicas, rank, allow_duplicates) for the distributed ones.
    {F, Role::SamplerType, "torch::data::samplers::DistributedRandomSampler",
     A.count(0).worldSize(1).rank(2).flag(3), RowFacts().shufflesByEpoch(),
     "distributed, shuffled"},
    {F, Role::SamplerType,
     "torch::data::samplers::DistributedSequentialSampler",
     A.count(0).worldSize(1).rank(2).flag(3), "distributed, sequential"},
    {F, Role::SamplerType, "torch::data::samplers::DistributedSampler",
     A.count(0).worldSize(1).rank(2).flag(3), "distributed"},
    {F, Role::SamplerType, "torch::data::samplers::RandomSampler", A.count(0),
     RowFacts().shufflesByEpoch(), "shuffled"},
    {F, Role::SamplerType, "torch::data::samplers::SequentialSampler",
     A.count(0), "sequential"},
    {F, Role::SamplerType,
     "torch::data::samplers::DistributedRandomSampler::"
     "DistributedRandomSampler",
     A.count(0).worldSize(1).rank(2).flag(3), RowFacts().shufflesByEpoch(),
     "distributed, shuffled"},
    {F, Role::SamplerType,
     "torch::data::samplers::DistributedSequentialSampler::"
     "DistributedSequentialSampler",
     A.count(0).worldSize(1).rank(2).flag(3), "distributed, sequential"},
    {F, Role::SetEpoch, "torch::data::samplers::DistributedSampler::set_epoch",
     A.value(0)},

    // Data loaders. make_data_loader copies the sampler; the 2-argument form
    // builds Sampler(dataset.size()) itself.
    {F, Role::DataLoaderFactory, "torch::data::make_data_loader",
     A.sampler(1).options(2).numParams(3), "sampler copied by value"},
    {F, Role::DataLoaderFactory, "torch::data::make_data_loader",
     A.options(1).numParams(2),
     "sampler built as Sampler(dataset.size()): one replica, rank 0"},
    {F, Role::DataLoaderIterate, "torch::data::DataLoaderBase::begin", A,
     "resets (reshuffles) the loader's sampler copy"},
};

} // namespace

llvm::ArrayRef<ApiEntry> torchTable() { return Rows; }

} // namespace api
} // namespace distlint
