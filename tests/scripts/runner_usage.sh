#!/usr/bin/env bash
# Bad command lines get a message and status 2.
source "$(dirname "$0")/lib.sh"
for args in "" "-n" "-n 0 /bin/true" "-n x /bin/true" "-n 2" "--bind-to socket -n 2 /bin/true" \
            "--timeout -1 -n 1 /bin/true" "--frobnicate -n 1 /bin/true"; do
  # shellcheck disable=SC2086
  "$SHMPIRUN" $args > /dev/null 2> "$scratch/err"
  rc=$?
  [ $rc -eq 2 ] || fail "'shmpirun $args' exited $rc, expected 2"
  grep -q "usage: shmpirun" "$scratch/err" || fail "'shmpirun $args' printed no usage"
done
"$SHMPIRUN" -n 1 --bind-to none -x SHMPI_TEST_VAR=42 sh -c 'test "$SHMPI_TEST_VAR" = 42' \
  || fail "-x VAR=value did not reach the rank"
echo "ok"
