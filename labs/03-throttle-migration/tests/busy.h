/* SPDX-License-Identifier: GPL-2.0 */
/*
 * busy.h - lab 3's test child: a SCHED_DEADLINE task that never blocks,
 * and records every change of CPU and every throttle it sees.
 */
#ifndef BUSY_H
#define BUSY_H

#include "deadline.h"

#define BUSY_MAX_CHANGES 16

/*
 * The misfit task.  A task of runtime R and deadline D fits a CPU of
 * capacity C when R / D x 1024 <= C: 10/15 ms needs 682 (the kernel's
 * (10 << 20) / 15 >> 10), so it fits only the biggest CPUs.  Its runtime
 * is consumed at the CPU's capacity-scaled rate, so on a 256 CPU the
 * 10 ms last 40 ms of wall time; the period is much longer (100 ms), so
 * the task runs out of runtime well before its next period starts, even
 * with the tick's lateness in noticing it (one tick, 4 ms at HZ=250): it
 * is throttled and its replenishment timer is armed for the next period.
 * (Were the period shorter than that, the next period would already
 * have begun when it is throttled, the kernel would replenish it at once,
 * without a timer, and it would never sleep.)  Its bandwidth, R / P = 0.1,
 * is easily admitted.
 */
#define BUSY_RUNTIME	(10 * NSEC_PER_MSEC)
#define BUSY_DEADLINE	(15 * NSEC_PER_MSEC)
#define BUSY_PERIOD	(100 * NSEC_PER_MSEC)
extern const struct sl_dl busy_dl;

/*
 * A throttle, seen from the task: it was switched out while still
 * runnable (nr_involuntary_switches in /proc/self/sched went up) and its
 * scheduling deadline moved on (dl.deadline: it was replenished), which it
 * checks after every pause of more than BUSY_GAP_MS in its spinning and at
 * every move (a throttle that comes while it reads shows at the next one).  Either alone is something else: the host stalling the
 * emulated CPU, which the guest counts as run time, a preemption by the
 * stopper thread (the fair class's active balancing), or a runtime run out
 * past the start of the next period, replenished at once without a timer
 * and without a switch (the kernel moves only a task that waits for its
 * timer).
 */
#define BUSY_GAP_MS	2

/* What a busy child does. */
struct busy_spec {
	int cpu;		/* where it becomes SCHED_DEADLINE */
	struct sl_dl dl;
	int max_ms;		/* spin at most this long */
	/*
	 * Stop once it has run again after this many throttles on the CPU
	 * it is on (since its start or its last move): a move happens only
	 * at a throttle, so by then the answer cannot change any more.
	 */
	int settle;
	int untraced;		/* no timeline (a random scenario's tasks would share one) */
};

/* What it saw; times in ms since sched_setattr() returned. */
struct busy_result {
	struct sl_report r;
	int start;			/* CPU right after sched_setattr() */
	int n;				/* CPU changes seen */
	struct {
		double ms;
		int from, to;
		int throttle;		/* seen when it resumed after this one */
	} change[BUSY_MAX_CHANGES];
	int throttles;			/* throttles seen */
	int checks;			/* checks after a pause or a move */
	struct {
		double ms;
		int cpu;
		long long switches;	/* involuntary switches since the last check */
		int deadline;		/* a new deadline since the last check */
	} check[BUSY_MAX_CHANGES];	/* the first ones, for the messages */
	double ms;			/* how long it spun */
};

/*
 * Run a busy child to the end, with every CPU of capacity @hog_cap (0:
 * none) kept busy by a deadline hog meanwhile; traced for the report's
 * timeline.
 */
void busy_observe(const struct busy_spec *spec, struct busy_result *res,
		  unsigned long hog_cap);

/* What the task saw at its checks, for a message: "12 ms on CPU 0, ...". */
const char *busy_history(const struct busy_result *res, char *buf, size_t len);

#endif /* BUSY_H */
