/* Stand-in for the configure-generated mpitestconf.h of MPICH's test suite
   (bench/realcode only): the usual headers exist, nothing optional. */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_MEMORY_H 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define STDC_HEADERS 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
#endif
