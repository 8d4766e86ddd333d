//===- StdApi.cpp - C/C++ standard library, POSIX, environment variables --===//
//
// Environment variables are rows named "env:<VAR>": the launchers (torchrun,
// mpirun, srun, MVAPICH, PMI/PMIx) give every rank its own RANK-style value
// and the same WORLD_SIZE-style value. Any other variable is the same on every
// rank.
//
//===----------------------------------------------------------------------===//
#include "ApiTable.h"

namespace distlint {
namespace api {
namespace {

constexpr ArgRoles A;
constexpr Family F = Family::Std;
constexpr RowFacts Global = RowFacts().scope(RankScope::Global);

const ApiEntry Rows[] = {
    // Environment access: Count names the variable-name argument.
    {F, Role::EnvRead, "getenv", A.count(0)},
    {F, Role::EnvRead, "secure_getenv", A.count(0)},
    {F, Role::EnvWrite, "setenv", A.count(0).value(1)},
    {F, Role::EnvWrite, "putenv", A.count(0), "NAME=VALUE in one string"},

    // Parsing keeps the argument's rank dependence.
    {F, Role::Parse, "atoi", A.send(0)},
    {F, Role::Parse, "atol", A.send(0)},
    {F, Role::Parse, "atoll", A.send(0)},
    {F, Role::Parse, "atof", A.send(0)},
    {F, Role::Parse, "strtol", A.send(0)},
    {F, Role::Parse, "strtoll", A.send(0)},
    {F, Role::Parse, "strtoul", A.send(0)},
    {F, Role::Parse, "strtoull", A.send(0)},
    {F, Role::Parse, "strtod", A.send(0)},
    {F, Role::Parse, "strtof", A.send(0)},
    {F, Role::Parse, "std::stoi", A.send(0)},
    {F, Role::Parse, "std::stol", A.send(0)},
    {F, Role::Parse, "std::stoll", A.send(0)},
    {F, Role::Parse, "std::stoul", A.send(0)},
    {F, Role::Parse, "std::stoull", A.send(0)},
    {F, Role::Parse, "std::stof", A.send(0)},
    {F, Role::Parse, "std::stod", A.send(0)},

    // Ends the whole job: the launcher tears every rank down.
    // std::visit(visitor, variant): the variant's alternative chooses which
    // of the visitor's call operators runs.
    {F, Role::VariantDispatch, "std::visit", A.value(0).send(1)},

    {F, Role::FailStop, "exit", A.exitStatus(0)},
    {F, Role::FailStop, "_exit", A.exitStatus(0)},
    {F, Role::FailStop, "_Exit", A.exitStatus(0)},
    {F, Role::FailStop, "quick_exit", A.exitStatus(0)},
    {F, Role::FailStop, "abort", A},
    {F, Role::FailStop, "std::terminate", A},
    {F, Role::FailStop, "__assert_fail", A, "assert()"},
    {F, Role::FailStop, "__assert_perror_fail", A, "assert_perror()"},

    // Values that differ per rank without a rank id.
    {F, Role::LocalDataSource, "rand", A, "local random number"},
    {F, Role::LocalDataSource, "random", A, "local random number"},
    {F, Role::LocalDataSource, "rand_r", A, "local random number"},
    {F, Role::LocalDataSource, "drand48", A, "local random number"},
    {F, Role::LocalDataSource, "lrand48", A, "local random number"},
    {F, Role::LocalDataSource, "std::random_device::operator()", A,
     "local random number"},
    {F, Role::LocalDataSource, "std::chrono::system_clock::now", A,
     "local clock"},
    {F, Role::LocalDataSource, "std::chrono::steady_clock::now", A,
     "local clock"},
    {F, Role::LocalDataSource, "time", A.out(0), "local clock"},
    {F, Role::LocalDataSource, "clock", A, "local clock"},
    {F, Role::LocalDataSource, "gettimeofday", A.out(0), "local clock"},
    {F, Role::LocalDataSource, "clock_gettime", A.out(1), "local clock"},
    {F, Role::Clock, "std::chrono::system_clock::now", A},
    {F, Role::Clock, "std::chrono::steady_clock::now", A},
    {F, Role::Clock, "clock", A},
    {F, Role::Clock, "gettimeofday", A.out(0)},
    {F, Role::Clock, "clock_gettime", A.out(1)},
    {F, Role::LocalDataSource, "std::filesystem::exists", A,
     "local file system"},
    {F, Role::LocalDataSource, "std::filesystem::file_size", A,
     "local file system"},
    {F, Role::LocalDataSource, "access", A, "local file system"},
    {F, Role::LocalDataSource, "stat", A.out(1), "local file system"},
    {F, Role::LocalDataSource, "fopen", A, "local file system"},
    // Creating a file or directory exclusively succeeds in one process only.
    {F, Role::LocalDataSource, "open", A, "local file system"},
    {F, Role::LocalDataSource, "mkdir", A, "local file system"},
    {F, Role::LocalDataSource, "std::filesystem::create_directory", A,
     "local file system"},
    {F, Role::LocalDataSource, "std::filesystem::create_directories", A,
     "local file system"},
    {F, Role::LocalDataSource, "std::basic_ifstream::is_open", A,
     "local file system"},
    {F, Role::LocalDataSource, "std::basic_fstream::is_open", A,
     "local file system"},
    {F, Role::StreamState, "std::basic_ios::good", A},
    {F, Role::StreamState, "std::basic_ios::fail", A},
    {F, Role::StreamState, "std::basic_ios::operator bool", A},
    {F, Role::StreamState, "std::basic_ios::operator!", A},
    {F, Role::LocalDataSource, "gethostname", A.out(0), "host name"},
    {F, Role::LocalDataSource, "getpid", A, "process id"},

    // Container shape, not contents.
    {F, Role::ShapeQuery, "std::vector::size", A},
    {F, Role::ShapeQuery, "std::vector::empty", A},
    {F, Role::ShapeQuery, "std::vector::begin", A},
    {F, Role::ShapeQuery, "std::vector::end", A},
    {F, Role::ShapeQuery, "std::basic_string::size", A},
    {F, Role::ShapeQuery, "std::basic_string::length", A},
    {F, Role::ShapeQuery, "std::basic_string::empty", A},

    // Pointers into a container's elements.
    {F, Role::ElementStorage, "std::vector::data", A},
    {F, Role::ElementStorage, "std::array::data", A},
    {F, Role::ElementStorage, "std::basic_string::data", A},

    // New objects behind a pointer.
    {F, Role::ObjectAllocation, "std::make_unique", A},
    {F, Role::ObjectAllocation, "std::make_shared", A},

    // Rank variables set by the launchers (Global: the job's rank).
    {F, Role::RankSource, "env:RANK", A, Global, "torchrun global rank"},
    {F, Role::RankSource, "env:LOCAL_RANK", A, "torchrun local rank"},
    {F, Role::RankSource, "env:GROUP_RANK", A, "torchrun node rank"},
    {F, Role::RankSource, "env:NODE_RANK", A, "node rank"},
    {F, Role::RankSource, "env:OMPI_COMM_WORLD_RANK", A, Global,
     "Open MPI rank"},
    {F, Role::RankSource, "env:OMPI_COMM_WORLD_LOCAL_RANK", A,
     "Open MPI local rank"},
    {F, Role::RankSource, "env:OMPI_COMM_WORLD_NODE_RANK", A,
     "Open MPI node rank"},
    {F, Role::RankSource, "env:PMI_RANK", A, Global, "PMI rank"},
    {F, Role::RankSource, "env:PMIX_RANK", A, Global, "PMIx rank"},
    {F, Role::RankSource, "env:MPI_LOCALRANKID", A, "MPICH local rank"},
    {F, Role::RankSource, "env:MV2_COMM_WORLD_RANK", A, Global,
     "MVAPICH2 rank"},
    {F, Role::RankSource, "env:MV2_COMM_WORLD_LOCAL_RANK", A,
     "MVAPICH2 local rank"},
    {F, Role::RankSource, "env:SLURM_PROCID", A, Global, "Slurm task rank"},
    {F, Role::RankSource, "env:SLURM_LOCALID", A, "Slurm local task id"},
    {F, Role::RankSource, "env:SLURM_NODEID", A, "Slurm node id"},
    {F, Role::RankSource, "env:PALS_RANKID", A, Global, "PALS rank"},
    // World-size variables: the same on every rank.
    {F, Role::WorldSizeSource, "env:WORLD_SIZE", A, "torchrun"},
    {F, Role::WorldSizeSource, "env:LOCAL_WORLD_SIZE", A, "torchrun"},
    {F, Role::WorldSizeSource, "env:OMPI_COMM_WORLD_SIZE", A, "Open MPI"},
    {F, Role::WorldSizeSource, "env:OMPI_COMM_WORLD_LOCAL_SIZE", A, "Open MPI"},
    {F, Role::WorldSizeSource, "env:PMI_SIZE", A, "PMI"},
    {F, Role::WorldSizeSource, "env:MV2_COMM_WORLD_SIZE", A, "MVAPICH2"},
    {F, Role::WorldSizeSource, "env:SLURM_NTASKS", A, "Slurm"},
    {F, Role::WorldSizeSource, "env:SLURM_NPROCS", A, "Slurm"},
    // Watchdog switches: the value that disables the abort.
    {F, Role::TimeoutKnob, "env:TORCH_NCCL_ASYNC_ERROR_HANDLING", A,
     RowFacts().disabledBy(0)},
    {F, Role::TimeoutKnob, "env:NCCL_ASYNC_ERROR_HANDLING", A,
     RowFacts().disabledBy(0)},
    {F, Role::TimeoutKnob, "env:TORCH_NCCL_ENABLE_MONITORING", A,
     RowFacts().disabledBy(0)},
};

} // namespace

llvm::ArrayRef<ApiEntry> stdTable() { return Rows; }

} // namespace api
} // namespace distlint
