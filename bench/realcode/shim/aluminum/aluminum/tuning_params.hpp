// Stand-in for Aluminum's CMake-generated tuning_params.hpp (bench/realcode
// only): numbers of the right kind; their values do not change what the
// analysis sees.
#pragma once
#define AL_PE_NUM_CONCURRENT_OPS 4
#define AL_PE_NUM_STREAMS 64
#define AL_PE_NUM_PIPELINE_STAGES 2
#define AL_PE_INPUT_QUEUE_SIZE 8192
#define AL_SYNC_MEM_PREALLOC 1024
#define AL_CACHE_LINE_SIZE 64
#define AL_DESTRUCTIVE_INTERFERENCE_SIZE 64
#define AL_CONSTRUCTIVE_INTERFERENCE_SIZE 64
