#!/usr/bin/env bash
# Installs every Debian package distlint needs to build, test and analyze. Idempotent.
set -euo pipefail
PKGS=(cmake ninja-build g++ clang-19 libclang-19-dev llvm-19-dev libclang-common-19-dev clang-tidy-19 llvm-19-tools
      nlohmann-json3-dev libgtest-dev libgmock-dev libopenmpi-dev openmpi-bin libtorch-dev python3 git
      pre-commit libgloo-dev libicu72 libclang-rt-19-dev ccache libyaml-cpp-dev
      lld  # links the LibTorch test programs (tests/torch) faster than ld.bfd
      redis-server nginx-light  # loopback servers of the result-cache tests (tests/speed)
      libomp-19-dev  # Clang's omp.h: OpenMP sources parse, and the packages ship it
      dpkg-dev debootstrap  # cpack -G DEB (dpkg-shlibdeps); the package test's Debian root
      python3-torch)  # PyTorch 1.13 (Gloo, CPU) for /usr/bin/python3: the Python runtime tests (testdata/python)
# DISTLINT_SETUP=analyzer: only what building the analyzer needs (CI jobs
# that lint another project: docs/ci/github-actions.yml).
if [ "${DISTLINT_SETUP:-}" = analyzer ]; then
  PKGS=(cmake ninja-build g++ clang-19 libclang-19-dev llvm-19-dev libclang-common-19-dev nlohmann-json3-dev
        libomp-19-dev)
fi
# Ubuntu 24.04 (GitHub's ubuntu-24.04 runner) names ICU by its version.
if grep -qs '^ID=ubuntu' /etc/os-release; then
  for i in "${!PKGS[@]}"; do [ "${PKGS[$i]}" = libicu72 ] && PKGS[$i]=libicu74; done
fi
# npm is not listed: the image's Node.js (nodesource) bundles it, and Debian's
# npm package conflicts with that nodejs ("held broken packages").
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "distlint setup: all packages present"
