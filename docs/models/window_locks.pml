/*
 * window_locks.pml -- SPIN model of shmpi's passive-target window locks
 * (MPI_Win_lock / MPI_Win_lock_all with an O(1) lock_all; docs/rma-atomicity.md,
 * "Protocol B").  Run through docs/models/check.sh.
 *
 * The two 64-bit words are modelled as their halves (every access to a half below
 * is part of one access to the whole word, so nothing is lost):
 *   lock[t] = lx[t] << 32 | ls[t]   lx: exclusive holder+1, ls: shared holders
 *   all     = ax << 32 | as         ax: exclusive locks held or being acquired,
 *                                   as: lock_all holders
 * A CAS loop "v = w; if cond(v) and CAS(w, v, f(v)) break; wait" is modelled as one
 * blocking guarded step `atomic { cond(w) -> w = f(w) }`: a failed CAS has no
 * effect, and a spurious failure (the other half changed) only adds a retry.
 * Waits are blocking guards, so a deadlock is an invalid end state.
 *
 * Ghost variables g_ex/g_sh/g_all count the holders; every acquisition asserts
 * mutual exclusion (exclusive on t excludes any shared holder of t, any lock_all
 * holder and any other exclusive on t).
 *
 * Variants (spin -DNAME):
 *   (default)  random lock-only programs: NO origins, NEP epochs each; an epoch is
 *              lock_all..unlock_all, or a set of per-target locks (shared or
 *              exclusive per target) taken in increasing target order
 *   MSG        the MPI progress rule ("if no conflicting lock is held, the code
 *              fragment must complete"): A holds lock_shared(0) or lock_all and
 *              waits for a message from C, which C sends after taking a lock that
 *              does not conflict with A's; NB writers B take NEP exclusive locks
 *              each meanwhile.
 *              With ideal reader/writer locks this program always completes.
 *   LIVE       origin 0 takes lock_exclusive(0) forever (progress label), the
 *              others take lock_all or lock_shared(0) forever (-DNP, pan -l -f)
 *   FIX        lock_exclusive does not keep `all`'s exclusive count raised while it
 *              waits for lock[t]: it raises it, tries lock[t] once, and on failure
 *              takes it back down and waits until lock[t] looks free
 */

#ifndef NO
#define NO 3
#endif
#ifndef NT
#define NT 2
#endif
#ifndef NEP
#define NEP 2
#endif
#ifndef NB
#define NB 2
#endif

byte lx[NT];
byte ls[NT];
byte ax;
byte as;
byte g_ex[NT];   /* ghost: exclusive holders of t */
byte g_sh[NT];   /* ghost: shared holders of t */
byte g_all;      /* ghost: lock_all holders */
byte g_extot;    /* ghost: exclusive holders, all targets */
bit msg;         /* MSG: the message from C to A */
byte akind;      /* MSG: A's lock, 1 lock_shared(0), 2 lock_all */

inline lock_shared(t)
{
	atomic {
		lx[t] == 0 -> ls[t]++;                        /* CAS(lock[t], v, v+1) */
		assert(g_ex[t] == 0);
		g_sh[t]++
	}
}

inline unlock_shared(t)
{
	atomic { g_sh[t]--; ls[t]-- }                     /* lock[t] -= 1 */
}

inline lock_all()
{
	atomic {
		ax == 0 -> as++;                              /* CAS(all, v, v+1) */
		assert(g_extot == 0);
		g_all++
	}
}

inline unlock_all()
{
	atomic { g_all--; as-- }                          /* all -= 1 */
}

#define GRANT_EXCLUSIVE(t) \
	lx[t] = o + 1; \
	assert(g_ex[t] == 0 && g_sh[t] == 0 && g_all == 0); \
	g_ex[t]++; g_extot++

inline lock_exclusive(t)
{
#ifndef FIX
	atomic { as == 0 -> ax++ };                       /* CAS(all, v, v + 1<<32) */
	atomic { lx[t] == 0 && ls[t] == 0 -> GRANT_EXCLUSIVE(t) }  /* CAS(lock[t], 0, ..) */
#else
	do
	:: (as == 0);                                     /* wait: no lock_all holder */
	   (lx[t] == 0 && ls[t] == 0);                    /* wait: lock[t] looks free */
	   atomic {
		if
		:: as == 0 -> ax++; ok = 1                    /* CAS(all, v, v + 1<<32) */
		:: else -> ok = 0
		fi
	   };
	   if
	   :: ok ->
		atomic {
			if
			:: lx[t] == 0 && ls[t] == 0 -> GRANT_EXCLUSIVE(t); ok = 1
			:: else -> ok = 0                     /* CAS(lock[t], 0, ..) failed */
			fi
		};
		if
		:: ok -> break
		:: else -> ax--                               /* take the claim back */
		fi
	   :: else -> skip
	   fi
	od;
	ok = 0
#endif
}

inline unlock_exclusive(t)
{
	atomic { g_ex[t]--; g_extot--; lx[t] = 0 };       /* release store */
	ax--                                              /* all -= 1<<32 */
}

#if defined(MSG)

/* A: takes a lock, then waits for C's message */
active proctype A()
{
	byte o = _pid;
	/* choose first, then call: a blocked lock call must not switch options */
	if
	:: akind = 1
	:: akind = 2
	fi;
	if
	:: akind == 1 -> lock_shared(0);  msg == 1; unlock_shared(0)
	:: akind == 2 -> lock_all();      msg == 1; unlock_all()
	fi
}

/* C: takes a lock compatible with A's, then sends the message */
active proctype C()
{
	byte o = _pid, c;
	bit ok;
	akind != 0;
	if
	:: c = 1                      /* lock_shared(0) */
	:: c = 2                      /* lock_shared(1) */
	:: c = 3                      /* lock_all */
	:: akind == 1 -> c = 4        /* lock_exclusive(1): A holds only target 0 */
	fi;
	if
	:: c == 1 -> lock_shared(0);    msg = 1; unlock_shared(0)
	:: c == 2 -> lock_shared(1);    msg = 1; unlock_shared(1)
	:: c == 3 -> lock_all();        msg = 1; unlock_all()
	:: c == 4 -> lock_exclusive(1); msg = 1; unlock_exclusive(1)
	fi
}

/* B: NB writers, NEP exclusive epochs each, on either target */
active [NB] proctype B()
{
	byte o = _pid, n, t;
	bit ok;
	do
	:: n < NEP ->
		select(t : 0 .. NT - 1);
		lock_exclusive(t);
		unlock_exclusive(t);
		atomic { n++; t = 0 }
	:: else -> break
	od
}

#elif defined(LIVE)

active [NO] proctype origin()
{
	byte o = _pid;
	bit ok;
	do
	:: o == 0 ->
		lock_exclusive(0);
progress_excl:	unlock_exclusive(0)
	:: o != 0 -> lock_all(); unlock_all()
	:: o != 0 -> lock_shared(0); unlock_shared(0)
	od
}

#else

/* random lock-only programs; MPI: an origin holds at most one lock per target,
 * and either lock_all or per-target locks, never both */
active [NO] proctype origin()
{
	byte o = _pid, n, t;
	byte kind[NT];   /* 0 none, 1 shared, 2 exclusive */
	bit ok;
	do
	:: n < NEP ->
		if
		:: true -> lock_all(); unlock_all()   /* choose first, then block */
		:: atomic {
			t = 0;
			do
			:: t < NT ->
				if
				:: kind[t] = 0                 /* (all none: an empty epoch) */
				:: kind[t] = 1
				:: kind[t] = 2
				fi;
				t++
			:: else -> break
			od;
			t = 0
		   };
		   do                                         /* acquire in target order */
		   :: t < NT ->
			if
			:: kind[t] == 1 -> lock_shared(t)
			:: kind[t] == 2 -> lock_exclusive(t)
			:: else -> skip
			fi;
			t++
		   :: else -> break
		   od;
		   t = 0;
		   do                                         /* release */
		   :: t < NT ->
			if
			:: kind[t] == 1 -> unlock_shared(t)
			:: kind[t] == 2 -> unlock_exclusive(t)
			:: else -> skip
			fi;
			kind[t] = 0;
			t++
		   :: else -> break
		   od
		fi;
		atomic { n++; t = 0 }
	:: else -> break
	od
}

#endif
