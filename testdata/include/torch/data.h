// distlint test declarations: torch::data (datasets, transforms, samplers,
// data loaders) following LibTorch 1.13.
//
// Facts the rules rely on, as in the real library:
//  - DistributedRandomSampler::reset() shuffles with std::mt19937(epoch_):
//    without set_epoch() every epoch has the same order;
//  - make_data_loader(dataset, sampler, options) takes the sampler BY VALUE
//    and the loader keeps a private copy with no accessor;
//  - make_data_loader<Sampler>(dataset, options) builds Sampler(size):
//    one replica, rank 0 for the distributed samplers.
#pragma once
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <torch/arg.h>
#include <torch/types.h>
#include <type_traits>
#include <utility>
#include <vector>

namespace torch {
namespace serialize {
class OutputArchive;
class InputArchive;
} // namespace serialize

namespace data {

template <typename Data = Tensor, typename Target = Tensor> struct Example {
  using DataType = Data;
  using TargetType = Target;
  Example() = default;
  Example(Data data, Target target)
      : data(std::move(data)), target(std::move(target)) {}
  Data data;
  Target target;
};

namespace example {
using NoTarget = void;
}

template <typename Data> struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;
  Example() = default;
  /* implicit */ Example(Data data) : data(std::move(data)) {}
  operator Data &() { return data; }
  operator const Data &() const { return data; }
  Data data;
};

using TensorExample = Example<Tensor, example::NoTarget>;

//===--- Datasets ---------------------------------------------------------===//
namespace datasets {
template <typename S, typename T> class MapDataset;
template <typename D, typename T> MapDataset<D, T> map(D, T);

namespace detail {
template <typename T> struct is_optional : std::false_type {};
template <typename T> struct is_optional<optional<T>> : std::true_type {};
} // namespace detail

template <typename Self, typename Batch = std::vector<Example<>>,
          typename BatchRequest = c10::ArrayRef<size_t>>
class BatchDataset {
public:
  using SelfType = Self;
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  constexpr static bool is_stateful = detail::is_optional<BatchType>::value;

  virtual ~BatchDataset() = default;
  virtual Batch get_batch(BatchRequest request) = 0;
  virtual optional<size_t> size() const = 0;

  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) & {
    return datasets::map(static_cast<Self &>(*this), std::move(transform));
  }
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) && {
    return datasets::map(std::move(static_cast<Self &>(*this)),
                         std::move(transform));
  }
};

template <typename Self, typename SingleExample = Example<>>
class Dataset : public BatchDataset<Self, std::vector<SingleExample>> {
public:
  using ExampleType = SingleExample;
  virtual ExampleType get(size_t index) = 0;
  std::vector<ExampleType> get_batch(c10::ArrayRef<size_t> indices) override {
    std::vector<ExampleType> batch;
    for (const auto i : indices)
      batch.push_back(get(i));
    return batch;
  }
};

template <typename SourceDataset, typename AppliedTransform>
class MapDataset
    : public BatchDataset<MapDataset<SourceDataset, AppliedTransform>,
                          typename AppliedTransform::OutputBatchType,
                          typename SourceDataset::BatchRequestType> {
public:
  using DatasetType = SourceDataset;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename SourceDataset::BatchRequestType;
  using OutputBatchType = typename AppliedTransform::OutputBatchType;

  MapDataset(DatasetType dataset, TransformType transform)
      : dataset_(std::move(dataset)), transform_(std::move(transform)) {}
  OutputBatchType get_batch(BatchRequestType indices) override {
    return transform_.apply_batch(dataset_.get_batch(std::move(indices)));
  }
  optional<size_t> size() const noexcept override { return dataset_.size(); }
  const SourceDataset &dataset() noexcept { return dataset_; }
  const AppliedTransform &transform() noexcept { return transform_; }

private:
  SourceDataset dataset_;
  AppliedTransform transform_;
};

template <typename DatasetType, typename TransformType>
MapDataset<DatasetType, TransformType> map(DatasetType dataset,
                                           TransformType transform) {
  return {std::move(dataset), std::move(transform)};
}

class TORCH_API MNIST : public Dataset<MNIST> {
public:
  enum class Mode { kTrain, kTest };
  explicit MNIST(const std::string &root, Mode mode = Mode::kTrain);
  Example<> get(size_t index) override;
  optional<size_t> size() const override;
  bool is_train() const noexcept;
  const Tensor &images() const;
  const Tensor &targets() const;
};

struct TensorDataset : public Dataset<TensorDataset, TensorExample> {
  explicit TensorDataset(torch::Tensor tensor) : tensor(std::move(tensor)) {}
  TensorExample get(size_t index) override { return tensor[int64_t(index)]; }
  optional<size_t> size() const override { return size_t(tensor.size(0)); }
  Tensor tensor;
};
} // namespace datasets

//===--- Transforms -------------------------------------------------------===//
namespace transforms {
template <typename InputBatch, typename OutputBatch> class BatchTransform {
public:
  using InputBatchType = InputBatch;
  using OutputBatchType = OutputBatch;
  virtual ~BatchTransform() = default;
  virtual OutputBatch apply_batch(InputBatch input_batch) = 0;
};

template <typename BatchType, typename T = std::vector<BatchType>>
using Collation = BatchTransform<T, BatchType>;

template <typename T = Example<>> struct Stack;
template <> struct Stack<Example<>> : public Collation<Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override;
};
template <> struct Stack<TensorExample> : public Collation<TensorExample> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override;
};

template <typename Input, typename Output>
class Transform
    : public BatchTransform<std::vector<Input>, std::vector<Output>> {
public:
  using InputType = Input;
  using OutputType = Output;
  virtual OutputType apply(InputType input) = 0;
  std::vector<Output> apply_batch(std::vector<Input> input_batch) override {
    std::vector<Output> output;
    for (auto &i : input_batch)
      output.push_back(apply(std::move(i)));
    return output;
  }
};

template <typename Target = Tensor>
struct Normalize : public Transform<Example<Tensor, Target>,
                                    Example<Tensor, Target>> {
  Normalize(double mean, double stddev);
  Example<Tensor, Target> apply(Example<Tensor, Target> input) override;
};
} // namespace transforms

//===--- Samplers ---------------------------------------------------------===//
namespace samplers {
template <typename BatchRequest = std::vector<size_t>> class Sampler {
public:
  using BatchRequestType = BatchRequest;
  virtual ~Sampler() = default;
  virtual void reset(optional<size_t> new_size) = 0;
  virtual optional<BatchRequest> next(size_t batch_size) = 0;
  virtual void save(serialize::OutputArchive &archive) const = 0;
  virtual void load(serialize::InputArchive &archive) = 0;
};

class TORCH_API RandomSampler : public Sampler<> {
public:
  explicit RandomSampler(int64_t size, Dtype index_dtype = torch::kInt64);
  void reset(optional<size_t> new_size = nullopt) override;
  optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
  size_t index() const noexcept;
};

class TORCH_API SequentialSampler : public Sampler<> {
public:
  explicit SequentialSampler(size_t size);
  void reset(optional<size_t> new_size = nullopt) override;
  optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
  size_t index() const noexcept;
};

template <typename BatchRequest = std::vector<size_t>>
class DistributedSampler : public Sampler<BatchRequest> {
public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                     bool allow_duplicates = true)
      : size_(size), num_replicas_(num_replicas), rank_(rank), epoch_(0),
        allow_duplicates_(allow_duplicates) {}

  /// Sets the epoch; the next reset() shuffles with this seed.
  void set_epoch(size_t epoch) { epoch_ = epoch; }
  size_t epoch() const { return epoch_; }

protected:
  size_t local_sample_count() {
    return allow_duplicates_ ? (size_ + num_replicas_ - 1) / num_replicas_
                             : size_ / num_replicas_;
  }
  size_t size_;
  size_t num_replicas_;
  size_t rank_;
  size_t epoch_;
  bool allow_duplicates_;
};

class TORCH_API DistributedRandomSampler : public DistributedSampler<> {
public:
  DistributedRandomSampler(size_t size, size_t num_replicas = 1,
                           size_t rank = 0, bool allow_duplicates = true);
  void reset(optional<size_t> new_size = nullopt) override;
  optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
  size_t index() const noexcept;
};

class TORCH_API DistributedSequentialSampler : public DistributedSampler<> {
public:
  DistributedSequentialSampler(size_t size, size_t num_replicas = 1,
                               size_t rank = 0, bool allow_duplicates = true);
  void reset(optional<size_t> new_size = nullopt) override;
  optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive &archive) const override;
  void load(serialize::InputArchive &archive) override;
  size_t index() const noexcept;
};
} // namespace samplers

//===--- Data loaders -----------------------------------------------------===//
struct DataLoaderOptions {
  DataLoaderOptions() = default;
  /* implicit */ DataLoaderOptions(size_t batch_size)
      : batch_size_(batch_size) {}
  TORCH_ARG(size_t, batch_size) = 1;
  TORCH_ARG(size_t, workers) = 0;
  TORCH_ARG(optional<size_t>, max_jobs);
  TORCH_ARG(optional<std::chrono::milliseconds>, timeout);
  TORCH_ARG(bool, enforce_ordering) = true;
  TORCH_ARG(bool, drop_last) = false;
};

template <typename Batch> class Iterator {
public:
  Batch &operator*();
  Batch *operator->();
  Iterator &operator++();
  bool operator==(const Iterator &other) const;
  bool operator!=(const Iterator &other) const;
};

template <typename Dataset, typename Batch, typename BatchRequest>
class DataLoaderBase {
public:
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  virtual ~DataLoaderBase() = default;
  /// Starts a pass over the data: resets the sampler (reshuffles).
  Iterator<Batch> begin();
  Iterator<Batch> end();
  void join();
};

template <typename Dataset, typename Sampler>
class StatelessDataLoader
    : public DataLoaderBase<Dataset, typename Dataset::BatchType,
                            typename Sampler::BatchRequestType> {
public:
  using SamplerType = Sampler;
  StatelessDataLoader(Dataset dataset, Sampler sampler,
                      DataLoaderOptions options)
      : sampler_(std::move(sampler)) {
    (void)dataset;
    (void)options;
  }

private:
  Sampler sampler_; // the loader's own copy
};

template <typename Dataset, typename Sampler>
std::enable_if_t<!Dataset::is_stateful,
                 std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, Sampler sampler, DataLoaderOptions options) {
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(
      std::move(dataset), std::move(sampler), std::move(options));
}

template <typename Sampler = samplers::RandomSampler, typename Dataset>
std::enable_if_t<!Dataset::is_stateful &&
                     std::is_constructible<Sampler, size_t>::value,
                 std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset,
                 DataLoaderOptions options = DataLoaderOptions()) {
  const optional<size_t> size = dataset.size();
  return make_data_loader(std::move(dataset), Sampler(*size),
                          std::move(options));
}

} // namespace data
} // namespace torch
