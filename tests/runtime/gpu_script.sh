#!/usr/bin/env bash
# runtime-check/gpu/run_h200.sh on a machine without a GPU (here, with an
# nvidia-smi that finds none): one clear FAIL line and exit 1 at once, before
# anything is built. What it checks on a GPU runs on the lent device machine.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d /tmp/dlrt-gpu-test-XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver" >&2\nexit 9\n' \
  > "$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/nvidia-smi"
start=$SECONDS
PATH="$tmp/bin:$PATH" OUT="$tmp/out" timeout 60 bash "$repo/runtime-check/gpu/run_h200.sh" \
  > "$tmp/stdout" 2>&1
code=$?
cat "$tmp/stdout"
fails=$(grep -c '^FAIL no GPU visible (nvidia-smi: NVIDIA-SMI has failed' "$tmp/stdout")
if [ "$code" != 1 ] || [ "$fails" != 1 ] || [ $((SECONDS - start)) -gt 20 ] ||
   [ -e "$tmp/out/raw-traces" ] || ! grep -q '^FAIL no GPU' "$tmp/out/run_h200.log"; then
  echo "FAIL: want exit 1 with one 'FAIL no GPU visible' line (also in the log) and nothing run; got exit $code"
  exit 1
fi
echo "PASS gpu script without a GPU: exit 1, one clear line"
