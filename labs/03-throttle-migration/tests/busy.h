/* SPDX-License-Identifier: GPL-2.0 */
/*
 * busy.h - lab 3's helpers: a SCHED_DEADLINE task that never blocks.
 */
#ifndef BUSY_H
#define BUSY_H

#include "schedlab.h"

#define BUSY_MAX_CHANGES 16

/*
 * The task's parameters.  A task of runtime R and deadline D fits a CPU
 * of capacity C when R / D x 1024 <= C: 10/15 ms needs 683, so it does
 * not fit a half-size (512) little CPU and fits a big one.  Its runtime
 * is consumed at the CPU's capacity-scaled rate, so on a 512 CPU the
 * 10 ms last 20 ms of wall time; the period is much longer (100 ms), so
 * the task runs out of runtime well before its next period starts, even
 * with the tick's lateness in noticing it (one tick, 4 ms at HZ=250): it
 * is throttled and its replenishment timer is armed for the next period.
 * (Were the period shorter than 20 ms plus a tick, the next period would
 * already have begun when it is throttled, the kernel would replenish it
 * at once, without a timer, and it would never sleep.)  Its bandwidth,
 * R / P = 0.1, is easily admitted.
 */
#define BUSY_RUNTIME	(10 * NSEC_PER_MSEC)
#define BUSY_DEADLINE	(15 * NSEC_PER_MSEC)
#define BUSY_PERIOD	(100 * NSEC_PER_MSEC)

/* What a busy child saw. */
struct busy_result {
	int err;			/* 0, or -errno of the failed step */
	char step[64];			/* the step that failed */
	int start;			/* CPU right after sched_setattr() */
	int n;				/* CPU changes seen */
	struct {
		double ms;		/* since sched_setattr() */
		int from, to;
	} change[BUSY_MAX_CHANGES];
	int throttles;			/* gaps of more than 10 ms */
};

/*
 * Fork a child that runs on @cpu, widens its affinity to every CPU again
 * (SCHED_DEADLINE refuses an affinity smaller than the root domain),
 * becomes SCHED_DEADLINE with the BUSY_* parameters and spins.
 * With @ms > 0, busy_observe() has it spin that long, recording every CPU
 * change, and report; with busy_spawn() it spins until killed.
 */
void busy_observe(int cpu, int ms, struct busy_result *res);
pid_t busy_spawn(int cpu);

/* /proc/PID/stat field 39: the CPU @pid last ran on. */
int busy_task_cpu(pid_t pid);

/* The capacity a BUSY_* task needs, as the kernel computes it. */
unsigned long busy_demand(void);

/* The slowest CPU. */
int busy_slowest_cpu(void);

#endif /* BUSY_H */
