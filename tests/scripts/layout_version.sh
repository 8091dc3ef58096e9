#!/usr/bin/env bash
# A segment written with another layout version is refused by shmpi-dump with a message
# naming both versions (the same check every rank and the broker run: check_header).
source "$(dirname "$0")/lib.sh"
name=$("$FAKE_SEGMENT" --version 999) || fail "could not make a fake segment"
trap 'rm -rf "$scratch"; rm -f "/dev/shm/$name"' EXIT
"$SHMPI_DUMP" --segment "$name" > "$scratch/out" 2> "$scratch/err"
rc=$?
cat "$scratch/err"
[ $rc -eq 2 ] || fail "shmpi-dump exit $rc on a foreign segment, expected 2"
ours=$("$FAKE_SEGMENT" --layout-version)
grep -q "layout version 999 does not match this program's layout version $ours " "$scratch/err" \
  || fail "message does not name both versions"
# The listing reports it too and still lists the rest.
"$SHMPI_DUMP" > "$scratch/out" 2> "$scratch/err" || fail "listing failed"
grep -q "layout version 999" "$scratch/err" || fail "listing did not report the foreign segment"
echo "ok"
