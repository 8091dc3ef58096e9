# Shared by run_coll_peer.sh and run_p2p_peer.sh (sourced after `peer` and `src` are
# set): skip when the peer is not installed, a scratch directory, building a program
# with the peer's compiler, and running every program at every rank count.
set -u
command -v "mpicc.$peer" > /dev/null && command -v "mpirun.$peer" > /dev/null || {
  echo "mpicc.$peer/mpirun.$peer not installed: skipping"; exit 77; }
work=$(mktemp -d /tmp/shmpi-peer.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL ($peer): $*" >&2; exit 1; }
now_ms() { date +%s%3N; }

# peer_build PROG [LINK ARGS...]
peer_build() {
  "mpicc.$peer" -std=gnu11 -Wall -Wextra -Werror -O2 -o "$work/$1" "$src/$1.c" "${@:2}" || fail "$1 does not build"
}

# peer_run_all WHAT "RANK COUNTS" PROGS...: each program at each rank count must exit 0
# with rank 0's "<program>: OK (N checks)" line. MPICH busy-polls: at 8 ranks on 2 cores
# every synchronization costs a time slice, so long timeouts (the programs keep their
# iteration counts moderate).
peer_run_all() {
  local what=$1 counts=$2
  shift 2
  local total0 n p t0 rc ms ok limit
  total0=$(now_ms)
  for n in $counts; do
    limit=$(( n > 4 ? 300 : 150 ))
    for p in "$@"; do
      t0=$(now_ms)
      timeout "$limit" "mpirun.$peer" -n "$n" "$work/$p" > "$work/out" 2>&1
      rc=$?
      ms=$(( $(now_ms) - t0 ))
      if [ $rc -ne 0 ]; then
        cat "$work/out" >&2
        [ $rc -eq 124 ] && fail "$p at $n ranks: no result within $limit s (hang?)"
        fail "$p at $n ranks: exit status $rc after $ms ms"
      fi
      ok=$(grep -a "^$p: OK (" "$work/out") || { cat "$work/out" >&2; fail "$p at $n ranks: exit 0 but no OK line"; }
      echo "ok: $p at $n ranks, $ms ms: $ok"
    done
  done
  echo "all $what test programs pass against $peer ($(( ($(now_ms) - total0) / 1000 )) s)"
}
