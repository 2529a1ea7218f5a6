// SPDX-License-Identifier: GPL-2.0
/* busy.c - see busy.h. */
#include "busy.h"
#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

const struct sl_dl busy_dl = { BUSY_RUNTIME, BUSY_DEADLINE, BUSY_PERIOD };

/*
 * The task's involuntary switches and its deadline, now: read until two
 * reads agree, since a throttle in the middle of one would show only one
 * of the two changed.
 */
static void sched_state(long long *switches, long long *deadline)
{
	static const char *const keys[] = { "nr_involuntary_switches", "dl.deadline" };
	long long a[2], b[2] = { -1, -1 };

	do {
		a[0] = b[0];
		a[1] = b[1];
		if (sl_proc_sched_fields(getpid(), keys, b, 2))
			sl_child_fail("reading /proc/self/sched", -ENOENT);
	} while (a[0] != b[0] || a[1] != b[1]);
	*switches = b[0];
	*deadline = b[1];
}

static void busy_child(const void *arg, void *out)
{
	const struct busy_spec *spec = arg;
	long long switches, deadline, sw, d;
	struct busy_result *r = out;
	double t0, last, t;
	int here, since = 0;

	sl_child_become_dl(NULL, spec->cpu, &spec->dl);
	here = r->start = spec->cpu;
	sched_state(&switches, &deadline);
	t0 = last = sl_now_ms();
	/* Never blocks: clock_gettime() is the vDSO, getcpu() does not sleep. */
	for (;;) {
		int c = sched_getcpu(), throttled = 0;

		t = sl_now_ms();
		if (t - t0 >= spec->max_ms)
			break;
		if (t - last > BUSY_GAP_MS || c != here) {
			/*
			 * Where it runs, and what it went through to get there:
			 * a move shows with the throttle it came with, once the
			 * CPU is the same before and after the read.
			 */
			int before;

			do {
				before = sched_getcpu();
				sched_state(&sw, &d);
				c = sched_getcpu();
			} while (c != before);
			throttled = sw > switches && d != deadline;
			if (r->checks < BUSY_MAX_CHANGES) {
				r->check[r->checks].ms = t - t0;
				r->check[r->checks].cpu = c;
				r->check[r->checks].switches = sw - switches;
				r->check[r->checks].deadline = d != deadline;
			}
			r->checks++;
			r->throttles += throttled;
			since += throttled;
			switches = sw;
			deadline = d;
		}
		last = sl_now_ms();
		if (c != here) {
			if (r->n < BUSY_MAX_CHANGES) {
				r->change[r->n].ms = t - t0;
				r->change[r->n].from = here;
				r->change[r->n].to = c;
				r->change[r->n].throttle = r->throttles;
			}
			r->n++;
			here = c;
			since = 0;
		}
		if (throttled && spec->settle && since >= spec->settle)
			break;
	}
	r->ms = t - t0;
}

void busy_observe(const struct busy_spec *spec, struct busy_result *res,
		  unsigned long hog_cap)
{
	int traced = !spec->untraced && sl_trace_start() == 0, n = 1;
	pid_t pids[SL_MAX_CPUS + 1];
	struct sl_hogs h = { .n = 0 };
	struct sl_child c;

	if (hog_cap)
		sl_hogs_start(&h, hog_cap);
	sl_avoid_cpu(spec->cpu);
	sl_child_start(&c, busy_child, spec, sizeof(*res));
	pids[0] = c.pid;
	sl_child_wait(&c, res);
	for (int i = 0; i < h.n; i++)
		pids[n++] = h.c[i].pid;
	sl_hogs_stop(&h);
	/* Where the tasks ran goes into the report's timeline. */
	if (traced)
		sl_trace_dump(tcase_name(), pids, n);
}

const char *busy_history(const struct busy_result *res, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; i < res->checks && i < BUSY_MAX_CHANGES && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%.0f ms on CPU %d%s%s",
				 i ? ", " : "", res->check[i].ms, res->check[i].cpu,
				 res->check[i].switches ? " switched out" : "",
				 res->check[i].deadline ? " new deadline" : "");
	return buf;
}
