#!/usr/bin/env bash
# Installs what shmpi needs (Debian 12 packages; root or sudo), then configures and
# builds the tree in ./build. Sourced by demo.sh and test.sh; safe to run again.
#   SHMPI_BUILD_DIR   build directory (default: build)
#   SHMPI_PEERS=1     also install Debian's MPICH and Open MPI (peer tests, benchmarks)
#                     and spin (the model check of the RMA protocols, docs/models)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SHMPI_BUILD_DIR:-$root/build}

packages=(build-essential meson ninja-build pkg-config python3
          libboost-dev libboost-context-dev libhwloc-dev libnuma-dev libspdlog-dev doctest-dev)
if [ "${SHMPI_PEERS:-0}" = 1 ]; then
  packages+=(mpich libmpich-dev openmpi-bin libopenmpi-dev spin)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$root"
fi
ninja -C "$build"
