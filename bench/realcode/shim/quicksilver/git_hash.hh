// Stand-in for the Makefile-generated git_hash.hh (bench/realcode only).
#define GIT_HASH "unknown"
