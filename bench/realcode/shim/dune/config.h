/* Stand-in for dune-common's CMake-generated config.h (bench/realcode only):
   an MPI build of dune-common 2.9 with nothing optional. */
#define DUNE_COMMON_VERSION "2.9.0"
#define DUNE_COMMON_VERSION_MAJOR 2
#define DUNE_COMMON_VERSION_MINOR 9
#define DUNE_COMMON_VERSION_REVISION 0
#define DUNE_MINIMAL_DEBUG_LEVEL 4
#define HAVE_MPI 1
#define ENABLE_MPI 1
#define MPICH_SKIP_MPICXX 1
#define OMPI_SKIP_MPICXX 1
#define MPIPP_H 1
#define MPI_NO_CPPBIND 1
