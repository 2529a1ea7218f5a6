/* SPDX-License-Identifier: GPL-2.0 */
/*
 * placement.h - lab 2's helpers: where a sleeping SCHED_DEADLINE task
 * wakes up, and cpuset partitions (root domains) to restrict it.
 */
#ifndef PLACEMENT_H
#define PLACEMENT_H

#include "schedlab.h"

#define PL_MAX_WAKEUPS 64

/* What a placement run does. */
struct pl_spec {
	const char *cgroup;	/* join /sys/fs/cgroup/<cgroup> first, or NULL */
	int start_cpu;		/* run there when becoming SCHED_DEADLINE */
	uint64_t runtime, deadline, period;	/* ns */
	int wakeups;		/* how many sleep/wakeup rounds */
	unsigned int sleep_us;	/* how long each sleep is */
};

/* What the child saw. */
struct pl_result {
	int err;		/* 0, or -errno of the step that failed */
	char step[64];		/* the step that failed */
	int start;		/* CPU it ran on right after sched_setattr() */
	int n;			/* wakeups recorded */
	int cpu[PL_MAX_WAKEUPS];	/* sched_getcpu() after each wakeup */
};

/*
 * Fork a child that (in @spec->cgroup, if any) runs on @spec->start_cpu,
 * widens its affinity to every CPU again (a SCHED_DEADLINE task may not be
 * restricted within its root domain), becomes SCHED_DEADLINE and then
 * sleeps and wakes up @spec->wakeups times, recording its CPU after each
 * wakeup.  Fills @res; fails the test on a setup error.
 */
void pl_run(const struct pl_spec *spec, struct pl_result *res);

/*
 * A cgroup v2 cpuset partition (its own root domain) of @cpus (e.g. "0,2")
 * at /sys/fs/cgroup/<name>; pl_remove_partition() undoes it.
 */
void pl_make_partition(const char *name, const char *cpus);
void pl_remove_partition(const char *name);

/* CPU numbers by capacity: the slowest and one of the fastest. */
int pl_slowest_cpu(void);
int pl_fastest_cpu(void);

/* The capacity a task of @runtime/@deadline needs (1024 = a big CPU). */
unsigned long pl_demand(uint64_t runtime, uint64_t deadline);

#endif /* PLACEMENT_H */
