/* SPDX-License-Identifier: GPL-2.0 */
/*
 * placement.h - lab 2's test child: a SCHED_DEADLINE task that starts on
 * a chosen CPU, sleeps and wakes up, and reports where each wakeup ran.
 */
#ifndef PLACEMENT_H
#define PLACEMENT_H

#include "deadline.h"

#define PL_MAX_WAKEUPS 32

/* What a placement run does. */
struct pl_spec {
	const char *cgroup;	/* join /sys/fs/cgroup/<cgroup> first, or NULL */
	int start_cpu;		/* run there when becoming SCHED_DEADLINE */
	struct sl_dl dl;
	unsigned int spin_us;	/* spin this long once SCHED_DEADLINE, then sleep */
	int wakeups;		/* how many sleep/wakeup rounds */
	unsigned int sleep_us;	/* how long each sleep is */
};

/*
 * What the child saw; times in ms since just before it became
 * SCHED_DEADLINE.  It reads its own deadline state in /proc/self/sched
 * (the scheduler's clock, ns; exec_start in whole ms, as printed) once
 * before the first sleep and once after each wakeup: its runtime and
 * deadline before each sleep, and when it ran again and its deadline after
 * each wakeup.  After a wakeup the task only runs until its next sleep:
 * in between its runtime can only go down and its deadline move only by
 * whole periods (a replenishment, which also refills the runtime), so the
 * state read after a wakeup stands for the next sleep as far as which
 * instance it is goes (pl_static_wakeup()).  One read a wakeup keeps the
 * task's own run time short (about 0.5 ms a read under emulation), well
 * within its runtime.
 */
struct pl_result {
	struct sl_report r;
	double set;		/* sched_setattr() had returned */
	double spun;		/* the spin ended, the first sleep began */
	int n;			/* wakeups recorded */
	int cpu[PL_MAX_WAKEUPS];	/* sched_getcpu() after each wakeup */
	double woke[PL_MAX_WAKEUPS];	/* when it ran again */
	struct {
		long long runtime;	/* dl.runtime before the sleep */
		long long deadline;	/* dl.deadline before the sleep */
		long long woke_ms;	/* se.exec_start after the wakeup */
		long long deadline_after;	/* dl.deadline after the wakeup */
	} dl[PL_MAX_WAKEUPS];
};

/*
 * Whether wakeup @i was placed on the task's static demand (runtime /
 * deadline), whatever its remaining runtime.  It was if the wakeup gave
 * the task a new instance, which the kernel does only when the old
 * deadline had passed or the remaining demand was the higher one: the new
 * deadline is then the wakeup's time plus the relative deadline, off the
 * grid of whole periods that every other replenishment moves a deadline
 * along.  (Under emulation a host that stalls a busy emulated CPU makes
 * the guest count the stall as run time; a task whose runtime runs out
 * that way has its deadline moved ahead by whole periods, and may wake up
 * before it, with little runtime left: a lower demand.)
 */
int pl_static_wakeup(const struct pl_spec *spec, const struct pl_result *res, int i);

/*
 * Run a child (sl_child_become_dl(), deadline.h) that becomes
 * SCHED_DEADLINE on @spec->start_cpu, spins @spec->spin_us, then sleeps
 * and wakes up @spec->wakeups times, recording its CPU after each wakeup.
 * Fills @res; fails the test on a setup error.  @pid gets the child's pid.
 */
void pl_run(const struct pl_spec *spec, struct pl_result *res, pid_t *pid);

#endif /* PLACEMENT_H */
