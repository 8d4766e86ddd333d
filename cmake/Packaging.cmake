# What `cmake --install` puts where, and the packages CPack makes of it:
#   cpack -G DEB   distlint_<version>_amd64.deb (Depends found by dpkg-shlibdeps)
#   cpack -G TGZ   distlint-<version>-Linux.tar.gz, relocatable: unpack anywhere
#
# Layout under the prefix (the binaries find everything relative to
# themselves, RPATH $ORIGIN/../lib):
#   bin/         distlint, distlint-rt, precommit-distlint
#   lib/         libdistlint-rt*.so, libdistlint-tidy.so
#   lib/clang/N/include   Clang's builtin headers (component clang-resource:
#                the .deb depends on libclang-common-N-dev instead)
#   share/distlint/cuda   headers CUDA 13 dropped that Clang N still includes
#   share/doc/distlint/   README, docs/ (rule pages, CI and IDE recipes)
#   share/man/man1/, share/bash-completion/completions/   generated from --help

set(DISTLINT_LLVM_MAJOR ${LLVM_VERSION_MAJOR})

# Clang's builtin headers (and omp.h, which libomp-N-dev installs beside
# them), for the tarball and plain installs.
if(IS_DIRECTORY ${DISTLINT_CLANG_RESOURCE_DIR}/include)
  install(DIRECTORY ${DISTLINT_CLANG_RESOURCE_DIR}/include
          DESTINATION lib/clang/${DISTLINT_LLVM_MAJOR} COMPONENT clang-resource
          PATTERN "*.modulemap" EXCLUDE)
endif()
if(NOT EXISTS ${DISTLINT_CLANG_RESOURCE_DIR}/include/omp.h)
  message(WARNING "${DISTLINT_CLANG_RESOURCE_DIR}/include/omp.h is missing: "
                  "install libomp-${DISTLINT_LLVM_MAJOR}-dev (scripts/setup.sh does) so "
                  "the packages can parse OpenMP sources")
endif()

# The CUDA shim, also copied into the build tree so build/bin/distlint finds
# it the same way (../share/distlint/cuda).
set(DISTLINT_CUDA_SHIM_SOURCE ${PROJECT_SOURCE_DIR}/analyzer/driver/cuda-shim)
file(GLOB DISTLINT_CUDA_SHIM_FILES CONFIGURE_DEPENDS ${DISTLINT_CUDA_SHIM_SOURCE}/*.h)
foreach(header ${DISTLINT_CUDA_SHIM_FILES})
  get_filename_component(name ${header} NAME)
  configure_file(${header} ${CMAKE_BINARY_DIR}/share/distlint/cuda/${name} COPYONLY)
endforeach()
install(FILES ${DISTLINT_CUDA_SHIM_FILES} DESTINATION share/distlint/cuda)

install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/precommit-distlint DESTINATION bin)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/.pre-commit-hooks.yaml
        DESTINATION share/doc/distlint)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION share/doc/distlint
        PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION share/doc/distlint/examples)

# Man pages and bash completion, from each command's --help at build time.
set(DISTLINT_DOC_COMMANDS distlint)
set(DISTLINT_SUMMARY_distlint
    "static checks for distributed-training C++ (MPI, NCCL, LibTorch c10d)")
if(TARGET distlint-rt-tool)
  list(APPEND DISTLINT_DOC_COMMANDS distlint-rt)
  set(DISTLINT_SUMMARY_distlint-rt
      "runs a distributed program with the collective recorder and reports divergences")
endif()
set(DISTLINT_DOC_OUTPUTS "")
foreach(cmd ${DISTLINT_DOC_COMMANDS})
  set(target ${cmd})
  if(cmd STREQUAL "distlint-rt")
    set(target distlint-rt-tool)
  endif()
  set(man ${CMAKE_BINARY_DIR}/share/man/man1/${cmd}.1)
  set(completion ${CMAKE_BINARY_DIR}/share/bash-completion/completions/${cmd})
  add_custom_command(
    OUTPUT ${man} ${completion}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/share/man/man1
            ${CMAKE_BINARY_DIR}/share/bash-completion/completions
    # A sanitized binary must not fail the build over what it leaks at exit.
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
            ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:${target}> -DNAME=${cmd}
            "-DSUMMARY=${DISTLINT_SUMMARY_${cmd}}" -DVERSION=${PROJECT_VERSION}
            -DMAN=${man} -DCOMPLETION=${completion}
            -P ${PROJECT_SOURCE_DIR}/cmake/CommandDocs.cmake
    DEPENDS ${target} ${PROJECT_SOURCE_DIR}/cmake/CommandDocs.cmake
    COMMENT "Man page and bash completion of ${cmd} from its --help"
    VERBATIM)
  list(APPEND DISTLINT_DOC_OUTPUTS ${man} ${completion})
  install(FILES ${man} DESTINATION share/man/man1)
  install(FILES ${completion} DESTINATION share/bash-completion/completions)
endforeach()
add_custom_target(distlint-command-docs ALL DEPENDS ${DISTLINT_DOC_OUTPUTS})

#--- CPack ---------------------------------------------------------------
set(CPACK_PACKAGE_NAME distlint)
set(CPACK_PACKAGE_VENDOR "distlint")
set(CPACK_PACKAGE_CONTACT "distlint maintainers <distlint@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Static and runtime checks for distributed-training C++ (MPI, NCCL, LibTorch c10d)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build.*/;/\\\\.git/")

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # distlint_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/distlint/distlint")
# Libraries from the binaries (libclang-cpp, libLLVM, libstdc++...), plus
# what they read at run time: Clang's builtin headers and OpenMP's omp.h
# (both into /usr/lib/llvm-N/lib/clang/N), and the CUDA/MPI headers of the
# user's own project, which the user has.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libclang-common-${DISTLINT_LLVM_MAJOR}-dev, libomp-${DISTLINT_LLVM_MAJOR}-dev, python3")
# distlint-rt runs MPI programs through Open MPI's mpirun; the clang-tidy
# plugin is loaded into clang-tidy-N.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openmpi-bin")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clang-tidy-${DISTLINT_LLVM_MAJOR}, pre-commit")
# dpkg-shlibdeps must see our own libraries as ours (no package provides
# them): they are looked up where the package puts them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/lib)

# The .deb leaves Clang's headers to libclang-common-N-dev (which owns
# /usr/lib/clang/N); every other package keeps its own copy.
set(DISTLINT_CPACK_COMPONENTS_WITHOUT_RESOURCE Unspecified)
configure_file(${PROJECT_SOURCE_DIR}/cmake/CPackProjectConfig.cmake.in
               ${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake @ONLY)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake)
include(CPack)
