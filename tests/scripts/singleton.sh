#!/usr/bin/env bash
# Programs started without shmpirun run as one-rank jobs.
source "$(dirname "$0")/lib.sh"
env -u SHMPI_JOB_ID "$TEST_BIN/hello" 1 "$scratch" || fail "hello as a singleton exited $?"
env -u SHMPI_JOB_ID "$TEST_BIN/errhandlers" || fail "errhandlers as a singleton exited $?"
env -u SHMPI_JOB_ID "$TEST_BIN/barrier_loop" 1000 100 "$scratch" 10 || fail "barrier_loop as a singleton"
echo "ok"
