/*
 * accumulate_atomicity_tso.pml -- the accumulate-atomicity model on x86-TSO
 * without the fence: the single-element op's announce store (step 1) is a plain
 * mov, so it may sit in the origin's store buffer while the following load of
 * bulk[t] (step 2) executes.  The locked RMW drains the buffer, so the store
 * becomes visible at some point between the load and the RMW; the model lets
 * it become visible before the load or at any step between the load and the
 * RMW (all other accesses stay sequentially consistent, which is what x86
 * gives for the rest of the protocol: locked RMWs are full fences, and the only
 * store->load pair whose order matters is announce -> bulk[t]).
 *
 * Expected result: P2 (and, with -DNO_P2, P1) FAIL -- this is why step 1 is a
 * seq_cst store (xchg, or mov + mfence).  See docs/rma-atomicity.md.
 */
#define TSO 1
#include "accumulate_atomicity.pml"
