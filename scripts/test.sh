#!/usr/bin/env bash
# The README's second command: set up (with the MPICH/Open MPI peers), build, and run
# the whole test suite through meson test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export SHMPI_PEERS=1
source "$here/setup.sh"
meson test -C "$build" --print-errorlogs "$@"
