#!/usr/bin/env bash
# Model-check shmpi's RMA protocols with SPIN (Debian: apt-get install spin gcc).
# See docs/rma-atomicity.md for what each run shows.
#
#   docs/models/check.sh           the standard set (about a minute on 2 cores)
#   docs/models/check.sh --full    also the larger ticket-lock configuration
#   JOBS=n docs/models/check.sh    runs n verifications at a time (default 2)
#
# Every run is  spin [defines] -a model.pml ; gcc -O2|-O1 -DSAFETY|-DNP pan.c ;
# ./pan -m100000 -w23|-w18 [-l -f]  (safety: assertions + invalid end states;
# live: non-progress cycles under weak fairness).  Some runs are expected to find a counterexample: they
# document a bug in a rejected variant (TSO without the fence, a plain RMW on the
# stripe path, the original lock_exclusive) or a starvation case.  One line per
# run: OK (verified, no error), OK-CEX (the documented counterexample was found),
# or FAIL.  The exit status is 0 only if every run is OK / OK-CEX as expected.
set -u

here=$(cd "$(dirname "$0")" && pwd)
jobs=${JOBS:-2}
full=0
[ "${1:-}" = "--full" ] && full=1

for tool in spin gcc; do
	command -v "$tool" >/dev/null 2>&1 || { echo "check.sh: $tool not found (apt-get install spin gcc)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/shmpi-models.XXXXXX")
trap 'rm -rf "$work"' EXIT

# name | size | model | mode (safety|live) | expect (ok | cex:<pattern in pan output>) | spin defines
# size L: millions of states, gcc -O2 and a 2^23-slot hash table; S: small or
# stops at the first counterexample, gcc -O1 and 2^18 slots (the table is
# touched page by page, which is slow on VMs; -O2 only pays off on long runs)
runs=(
  "A-base       |L|accumulate_atomicity.pml    |safety|ok|"
  "A-S1         |L|accumulate_atomicity.pml    |safety|ok|-DS=1"
  "A-G2-S1      |L|accumulate_atomicity.pml    |safety|ok|-DG=2 -DS=1"
  "A-noatomic   |L|accumulate_atomicity.pml    |safety|ok|-DNOATOM_LAST=1"
  "A-2targets   |L|accumulate_atomicity.pml    |safety|ok|-DNT=2 -DNOPS=1"
  "A-precheck   |L|accumulate_atomicity.pml    |safety|ok|-DPRECHECK"
  "A-rec-n1     |S|accumulate_atomicity.pml    |safety|ok|-DPRECHECK -DTICKET -DNOPS=1"
  "A-rec-o2n3   |S|accumulate_atomicity.pml    |safety|ok|-DPRECHECK -DTICKET -DNO=2 -DNOPS=3"
  "A-slowplain  |S|accumulate_atomicity.pml    |safety|cex:assertion violated (inplain|-DSLOW_PLAIN"
  "A-slowplainP1|S|accumulate_atomicity.pml    |safety|cex:assertion violated (val[i]==expect[i])|-DSLOW_PLAIN -DNO_P2"
  "A-tso        |S|accumulate_atomicity_tso.pml|safety|cex:assertion violated (inplain|"
  "A-tsoP1      |S|accumulate_atomicity_tso.pml|safety|cex:assertion violated (val[i]==expect[i])|-DNO_P2"
  "A-tso-pre    |S|accumulate_atomicity_tso.pml|safety|cex:assertion violated (inplain|-DPRECHECK"
  "L-single-tas |S|accumulate_atomicity.pml    |live  |cex:non-progress cycle|-DLIVE_SINGLE"
  "L-single-tkt |S|accumulate_atomicity.pml    |live  |ok|-DLIVE_SINGLE -DTICKET"
  "L-bulk-tkt   |S|accumulate_atomicity.pml    |live  |cex:non-progress cycle|-DLIVE_BULK -DTICKET"
  "L-bulk-pre   |S|accumulate_atomicity.pml    |live  |cex:non-progress cycle|-DLIVE_BULK -DPRECHECK"
  "L-bulk-rec   |S|accumulate_atomicity.pml    |live  |ok|-DLIVE_BULK -DPRECHECK -DTICKET"
  "B-orig       |L|window_locks.pml            |safety|ok|"
  "B-fix        |L|window_locks.pml            |safety|ok|-DFIX"
  "B-msg-orig   |S|window_locks.pml            |safety|cex:invalid end state|-DMSG"
  "B-msg-fix    |S|window_locks.pml            |safety|ok|-DMSG -DFIX"
  "B-live-orig  |S|window_locks.pml            |live  |cex:non-progress cycle|-DLIVE"
  "B-live-fix   |S|window_locks.pml            |live  |cex:non-progress cycle|-DLIVE -DFIX"
)
if [ "$full" = 1 ]; then
  runs+=("A-rec-full   |L|accumulate_atomicity.pml    |safety|ok|-DPRECHECK -DTICKET")
fi

# one verification; writes "<line>" to $work/<index>.res
one() {
	local idx=$1 spec=$2
	local name size model mode expect defs
	IFS='|' read -r name size model mode expect defs <<<"$spec"
	name=$(echo $name); model=$(echo $model); mode=$(echo $mode)
	local d="$work/$idx"
	mkdir -p "$d" && cd "$d" || return
	local cflags pflags opt hash
	if [ "$mode" = live ]; then cflags="-DNP"; pflags="-l -f"; else cflags="-DSAFETY"; pflags=""; fi
	if [ "$size" = L ]; then opt=-O2; hash=-w23; else opt=-O1; hash=-w18; fi
	local t0=$SECONDS
	# shellcheck disable=SC2086
	if ! spin $defs -a "$here/$model" >spin.out 2>&1; then
		printf 'FAIL    %-14s spin -a failed: %s\n' "$name" "$(head -c 200 spin.out | tr '\n' ' ')" >"$work/$idx.res"; return
	fi
	# shellcheck disable=SC2086
	if ! gcc -w $opt $cflags -o pan pan.c >gcc.out 2>&1; then
		printf 'FAIL    %-14s gcc failed: %s\n' "$name" "$(head -c 200 gcc.out | tr '\n' ' ')" >"$work/$idx.res"; return
	fi
	# shellcheck disable=SC2086
	./pan -m100000 $hash $pflags >pan.out 2>&1
	local errors states depth first verdict
	errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.out | head -1)
	states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.out | head -1)
	depth=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' pan.out | head -1)
	first=$(grep -m1 '^pan:1:' pan.out | sed 's/^pan:1: //')
	if [ -z "$errors" ]; then
		verdict=FAIL; first="pan did not finish: $(tail -c 200 pan.out | tr '\n' ' ')"
	elif grep -q 'max search depth too small\|out of memory' pan.out; then
		verdict=FAIL; first="incomplete search: $(grep -m1 'max search depth too small\|out of memory' pan.out)"
	elif [ "$expect" = ok ]; then
		if [ "$errors" = 0 ]; then verdict=OK; first="no errors"; else verdict=FAIL; fi
	else
		if [ "$errors" != 0 ] && grep -qF "${expect#cex:}" pan.out; then
			verdict=OK-CEX
		else
			verdict=FAIL; first="expected counterexample '${expect#cex:}' not found (errors=$errors${first:+: $first})"
		fi
	fi
	printf '%-7s %-14s %-6s states=%-9s depth=%-6s errors=%-2s %3ss  %s  [spin %s-a %s]\n' \
		"$verdict" "$name" "$mode" "${states:-?}" "${depth:-?}" "${errors:-?}" "$((SECONDS - t0))" \
		"$first" "${defs:+$defs }" "$model" >"$work/$idx.res"
	rm -f pan pan.c pan.[bhmpt] ./*.trail
}
export -f one
export work here

for i in "${!runs[@]}"; do printf '%s\0%s\0' "$i" "${runs[$i]}"; done |
	xargs -0 -n2 -P "$jobs" bash -c 'one "$1" "$2"' _

status=0
for i in "${!runs[@]}"; do
	if [ -f "$work/$i.res" ]; then cat "$work/$i.res"; else echo "FAIL    run $i produced no result"; status=1; fi
	grep -q '^FAIL' "$work/$i.res" 2>/dev/null && status=1
done
if [ "$status" = 0 ]; then echo "check.sh: all ${#runs[@]} runs as documented"; else echo "check.sh: FAILED"; fi
exit "$status"
