// Stand-in for the Makefile-generated git_vers.hh (bench/realcode only).
#define GIT_VERS "unknown"
