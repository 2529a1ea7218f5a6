// SPDX-License-Identifier: GPL-2.0
/* placement.c - see placement.h. */
#include "placement.h"

#include <errno.h>
#include <unistd.h>

/* The child's own dl.runtime, dl.deadline and se.exec_start (/proc/self/sched). */
static void sched_state(long long *runtime, long long *deadline, long long *exec_start)
{
	const char *keys[] = { "dl.runtime", "dl.deadline", "se.exec_start" };
	long long vals[3];

	if (sl_proc_sched_fields(getpid(), keys, vals, 3))
		sl_child_fail("reading /proc/self/sched", -ENOENT);
	*runtime = vals[0];
	*deadline = vals[1];
	*exec_start = vals[2];
}

static void child(const void *arg, void *out)
{
	const struct pl_spec *spec = arg;
	struct pl_result *res = out;
	long long runtime, deadline, start;
	double t0 = sl_now_ms();

	sl_child_become_dl(spec->cgroup, spec->start_cpu, &spec->dl);
	res->set = sl_now_ms() - t0;
	/* From when it is a deadline task.  Never blocks: clock_gettime() is the vDSO. */
	while ((res->spun = sl_now_ms() - t0) - res->set < spec->spin_us / 1e3)
		;
	sched_state(&runtime, &deadline, &start);
	for (int i = 0; i < spec->wakeups && i < PL_MAX_WAKEUPS; i++) {
		res->dl[i].runtime = runtime;
		res->dl[i].deadline = deadline;
		usleep(spec->sleep_us);
		res->cpu[i] = sched_getcpu();
		res->woke[i] = sl_now_ms() - t0;
		/* Also the state before the next sleep: it only runs until then. */
		sched_state(&runtime, &deadline, &res->dl[i].woke_ms);
		res->dl[i].deadline_after = deadline;
		res->n++;
	}
}

void pl_run(const struct pl_spec *spec, struct pl_result *res, pid_t *pid)
{
	struct sl_child c;

	sl_child_start(&c, child, spec, sizeof(*res));
	*pid = c.pid;
	sl_child_wait(&c, res);
}

int pl_static_wakeup(const struct pl_spec *spec, const struct pl_result *res, int i)
{
	long long moved = res->dl[i].deadline_after - res->dl[i].deadline;

	return moved % (long long)spec->dl.period != 0;
}
