/*
 * accumulate_atomicity.pml -- SPIN model of shmpi's accumulate-atomicity protocol
 * (docs/rma-atomicity.md, "Protocol A").  Run through docs/models/check.sh.
 *
 * Shared state, per target t:   bulk[t]      bulk accumulates in progress on t
 *                               stripe[k]    stripe lock words (0 free, holder+1)
 *              per origin o:    announce[o]  0, or t+1 while o has a single-element
 *                                            fast-path op on t in flight
 * Every Promela statement on a shared variable is one sequentially consistent
 * access (the protocol uses seq_cst for all of them); -DTSO lets the announce
 * store sit in the store buffer past the load of bulk[t] (x86-TSO without the
 * xchg), see accumulate_atomicity_tso.pml.
 *
 * Every op adds 1 to each element it covers, so the final value of an element
 * must equal the number of ops that covered it (P1, checked by `checker`).
 * inplain[x] counts non-atomic read-modify-writes of x between their read and
 * their write; any other RMW of x in that window is a P2 violation (asserted).
 * P3 (no deadlock, every op finishes) = no invalid end state in the safety run;
 * starvation is checked by the -DLIVE_SINGLE / -DLIVE_BULK variants (-DNP, pan -l -f).
 *
 * Compile-time parameters (spin -DNAME=value):
 *   NO  origins (3)          NT  targets (1)          NE  elements per target (2)
 *   G   elements per granule / SIMD chunk, 1 or 2 (1) S  stripes per target (2)
 *   NOPS ops per origin (2)  NOATOM_LAST=1: the last element of each target has a
 *                            type with no CPU atomic (long double complex & co.)
 * Protocol switches:
 *   SLOW_PLAIN  the stripe (slow) path does a plain RMW instead of the CPU atomic
 *   PRECHECK    a single op reads bulk[t] first and goes straight to the stripe
 *               path without announcing when it is non-zero (recommended)
 *   TICKET      stripe locks are FIFO ticket locks instead of test-and-set
 *   TSO         the announce store may be delayed past the load of bulk[t]
 *   LIVE_SINGLE origin 0 does single-element ops forever (progress label after
 *               each), the others bulk ops forever; values are not tracked
 *   LIVE_BULK   origin 0 does bulk ops forever (progress after each), the others
 *               single-element ops forever
 *   NO_P2       drop the P2 assertions, so that only P1 (final values) is checked
 */

#ifndef NO
#define NO 3
#endif
#ifndef NT
#define NT 1
#endif
#ifndef NE
#define NE 2
#endif
#ifndef G
#define G 1
#endif
#if G > 2
#error "the bulk chunk is written out for G <= 2"
#endif
#ifndef S
#define S 2
#endif
#ifndef NOPS
#define NOPS 2
#endif
#ifndef NOATOM_LAST
#define NOATOM_LAST 0
#endif

#if defined(LIVE_SINGLE) || defined(LIVE_BULK)
#define LIVE 1
#endif

#define NX   (NT * NE)               /* elements in all */
#define NCH  ((NE + G - 1) / G)      /* chunks (granules) per target */
#define NTICK (NO + 1)               /* ticket counters wrap modulo this */
#define STRIPE_OF_CHUNK(t, c) ((t) * S + (c) % S)
#define STRIPE_OF(t, e)       STRIPE_OF_CHUNK(t, (e) / G)
#define NOATOM(e)             (NOATOM_LAST && (e) == NE - 1)
#define X                     (t * NE + e)   /* the single op's element */
#ifdef TSO
#define SEEN_ZERO  (seen == 0)
#define SEEN_RESET seen = 0
#else
#define SEEN_ZERO  (bulk[t] == 0)
#define SEEN_RESET skip
#endif

byte val[NX];          /* the window memory */
byte expect[NX];       /* ghost: ops issued per element */
byte inplain[NX];      /* ghost: non-atomic RMWs of x between read and write */
byte bulk[NT];
byte announce[NO];
#ifdef TICKET
byte tnext[NT * S];    /* ticket lock: next ticket, now serving */
byte tserv[NT * S];
#else
byte stripe[NT * S];
#endif
byte ndone;

/* ---- element access ---------------------------------------------------- */

#ifdef LIVE
#define ATOMIC_RMW(x)         skip
#define PLAIN_READ(x, r)      skip
#define PLAIN_WRITE(x, r)     skip
#else
#ifdef NO_P2
#define P2(x) skip           /* only P1 (final values) is checked */
#else
#define P2(x) assert(inplain[x] == 0)
#endif
/* one locked instruction (lock xadd / lock cmpxchg): indivisible */
#define ATOMIC_RMW(x)  atomic { P2(x); val[x] = val[x] + 1 }
/* the read half of a non-atomic RMW (a SIMD load) */
#define PLAIN_READ(x, r) atomic { P2(x); inplain[x]++; r = val[x] }
/* the write half (a SIMD store of the value computed from r) */
#define PLAIN_WRITE(x, r) atomic { val[x] = r + 1; inplain[x]--; r = 0 }
#endif

/* ---- stripe locks ------------------------------------------------------- */

inline stripe_acquire(k)
{
#ifdef TICKET
	atomic { my = tnext[k]; tnext[k] = (tnext[k] + 1) % NTICK };
	(tserv[k] == my);
	my = 0
#else
	atomic { stripe[k] == 0 -> stripe[k] = o + 1 }   /* CAS 0 -> o+1, retried */
#endif
}

inline stripe_release(k)
{
#ifdef TICKET
	atomic {
		tserv[k] = (tserv[k] + 1) % NTICK;
		/* model-only canonicalisation: an idle ticket lock's counter value is
		 * irrelevant, so restart it at 0 (keeps the state space small) */
		if
		:: tserv[k] == tnext[k] -> tserv[k] = 0; tnext[k] = 0
		:: else -> skip
		fi
	}
#else
	assert(stripe[k] == o + 1);
	stripe[k] = 0                                     /* release store */
#endif
}

/* ---- single-element op by o on (t, e) ----------------------------------- */

inline single_op()
{
	slow = NOATOM(e);              /* no CPU atomic: always the stripe path */
#ifdef PRECHECK
	if
	:: !slow && bulk[t] != 0 -> slow = 1
	:: else -> skip
	fi;
#endif
	if
	:: !slow ->
#ifdef TSO
		if
		:: announce[o] = t + 1;  /* the store drains before the load ...      */
		   seen = (bulk[t] != 0)
		:: seen = (bulk[t] != 0); /* ... or the load passes it (store buffer); */
		   announce[o] = t + 1   /* it drains at the latest at the locked RMW */
		fi;
#else
		announce[o] = t + 1;     /* seq_cst store (xchg) */
#endif
		if
		:: SEEN_ZERO ->          /* seq_cst load of bulk[t] */
			ATOMIC_RMW(X);
			announce[o] = 0      /* release store */
		:: else ->
			announce[o] = 0;
			slow = 1
		fi
	:: else -> skip
	fi;
	if
	:: slow ->
		stripe_acquire(STRIPE_OF(t, e));
		if
		:: NOATOM(e) ->
			PLAIN_READ(X, r0); PLAIN_WRITE(X, r0)
		:: else ->
#ifdef SLOW_PLAIN
			PLAIN_READ(X, r0); PLAIN_WRITE(X, r0)
#else
			ATOMIC_RMW(X)
#endif
		fi;
		stripe_release(STRIPE_OF(t, e))
	:: else -> skip
	fi;
	atomic { slow = 0; SEEN_RESET }
}

/* ---- bulk op by o on t over all NE elements ------------------------------ */

inline bulk_op()
{
	bulk[t]++;                             /* seq_cst RMW (lock xadd) */
	p = 0;
	do
	:: p < NO -> (announce[p] != t + 1);  /* wait out announced single ops */
	             p++
	:: else -> break
	od;
	c = 0;
	do
	:: c < NCH ->
		stripe_acquire(STRIPE_OF_CHUNK(t, c));
		/* SIMD: load every element of the chunk, then store every element */
		PLAIN_READ(t * NE + c * G, r0);
#if G > 1
		if
		:: c * G + 1 < NE -> PLAIN_READ(t * NE + c * G + 1, r1)
		:: else -> skip
		fi;
#endif
		PLAIN_WRITE(t * NE + c * G, r0);
#if G > 1
		if
		:: c * G + 1 < NE -> PLAIN_WRITE(t * NE + c * G + 1, r1)
		:: else -> skip
		fi;
#endif
		stripe_release(STRIPE_OF_CHUNK(t, c));
		c++
	:: else -> break
	od;
	bulk[t]--;                             /* seq_cst RMW */
	atomic { p = 0; c = 0 }
}

/* ---- origins ------------------------------------------------------------ */

active [NO] proctype origin()
{
	byte o = _pid;        /* origins are instantiated first: _pid 0..NO-1 */
	byte n, t, e, p, c, r0;
	bit slow;
#if G > 1
	byte r1;
#endif
#ifdef TICKET
	byte my;
#endif
#ifdef TSO
	bit seen;
#endif

#ifdef LIVE
	/* liveness variants: one target, ops forever */
	do
#ifdef LIVE_SINGLE
	:: o == 0 -> e = 0; single_op(); e = 0;
	   progress_single: skip
	:: o != 0 -> bulk_op()
#else
	:: o == 0 -> bulk_op();
	   progress_bulk: skip
	:: o != 0 -> e = 0; single_op(); e = 0
#endif
	od
#else
	do
	:: n < NOPS ->
		select(t : 0 .. NT - 1);
		if
		:: select(e : 0 .. NE - 1);
		   atomic { expect[t * NE + e]++ };
		   single_op()
		:: atomic { c = 0;
		            do :: c < NE -> expect[t * NE + c]++; c++ :: else -> break od;
		            c = 0 };
		   bulk_op()
		fi;
		atomic { n++; t = 0; e = 0 }
	:: else -> break
	od;
	ndone++
#endif
}

#ifndef LIVE
/* P1: after every origin finished, each element holds exactly its op count */
active proctype checker()
{
	byte i;
	(ndone == NO);
	atomic {
		i = 0;
		do
		:: i < NX -> assert(val[i] == expect[i]); i++
		:: else -> break
		od
	}
}
#endif
