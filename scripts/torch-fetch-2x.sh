#!/usr/bin/env bash
# Brings LibTorch 2.x headers for the real-header test (tests/torch) without
# installing anything: downloads Debian trixie's libtorch-dev .deb with apt
# (a private sources list, lists and cache under DEST) and unpacks it with
# `dpkg -x`. The 2.x c10d headers also include gloo headers, which
# libgloo-dev (scripts/setup.sh) provides from the system.
#
#   scripts/torch-fetch-2x.sh DEST
#
# On success prints the include root (DEST/root/usr/include) on the last line
# and exits 0. If the packages cannot be had (no network, suite gone, ...) it
# prints one line "unavailable: <reason>" and exits 3, so the caller can skip
# with that reason. Idempotent: an unpacked tree is reused.
set -uo pipefail

DEST=${1:?usage: torch-fetch-2x.sh DEST}
SUITE=${DISTLINT_TORCH2_SUITE:-trixie}
PACKAGE=libtorch-dev
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
ROOT=$DEST/root
STAMP=$DEST/unpacked.stamp

if [ -f "$STAMP" ] && [ -f "$ROOT/usr/include/torch/csrc/distributed/c10d/Backend.hpp" ]; then
  cat "$STAMP"
  echo "$ROOT/usr/include"
  exit 0
fi

unavailable() {
  echo "unavailable: $*"
  exit 3
}

command -v apt-get >/dev/null || unavailable "apt-get not found (not a Debian system)"
command -v dpkg >/dev/null || unavailable "dpkg not found"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$KEYRING" ] || unavailable "$KEYRING missing (package debian-archive-keyring)"

APT=$DEST/apt
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/download"
echo "deb [signed-by=$KEYRING] http://deb.debian.org/debian $SUITE main" >"$APT/sources.list"
APT_OPTS=(-o "Dir::Etc::SourceList=$APT/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache"
          -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=root"
          -o "Acquire::Retries=2" -o "Debug::NoLocking=1")

if ! apt-get "${APT_OPTS[@]}" update >"$APT/update.log" 2>&1; then
  unavailable "apt-get update for Debian $SUITE failed: $(grep -E '^(E|W):' "$APT/update.log" | head -1)"
fi
VERSION=$(apt-cache "${APT_OPTS[@]}" show "$PACKAGE" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1)
[ -n "$VERSION" ] || unavailable "Debian $SUITE has no $PACKAGE package"
case "$VERSION" in
  2.*) ;;
  *) unavailable "Debian $SUITE's $PACKAGE is $VERSION, not a 2.x release" ;;
esac

if ! (cd "$APT/download" && apt-get "${APT_OPTS[@]}" download "$PACKAGE=$VERSION") >"$APT/download.log" 2>&1; then
  unavailable "apt-get download $PACKAGE=$VERSION failed: $(grep -E '^E:' "$APT/download.log" | head -1)"
fi
DEB=$(ls "$APT/download/${PACKAGE}_"*.deb 2>/dev/null | head -1)
[ -n "$DEB" ] || unavailable "no .deb after apt-get download"

rm -rf "$ROOT"
dpkg -x "$DEB" "$ROOT" || unavailable "dpkg -x $DEB failed"
[ -f "$ROOT/usr/include/torch/csrc/distributed/c10d/Backend.hpp" ] ||
  unavailable "$DEB has no c10d headers"
echo "libtorch-dev $VERSION from Debian $SUITE" >"$STAMP"
cat "$STAMP"
echo "$ROOT/usr/include"
