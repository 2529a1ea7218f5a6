// SPDX-License-Identifier: GPL-2.0
/* uclamp.c - see uclamp.h. */
#include "uclamp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sl_read_rq_clamp(int cpu, int id, struct sl_rq_clamp *rc)
{
	char line[1024];
	FILE *f = fopen(SL_UCLAMP_FILE, "r");
	int found = 0, c, i;

	ck_assert_msg(f, "cannot open %s (the kit's instrumentation patch is missing?)",
		      SL_UCLAMP_FILE);
	while (!found && fgets(line, sizeof(line), f))
		found = !sl_parse_rq_clamp(line, &c, &i, rc) && c == cpu && i == id;
	fclose(f);
	ck_assert_msg(found, "no valid line 'cpu%d uclamp.%s ...' in %s", cpu, sl_clamp_name(id),
		      SL_UCLAMP_FILE);
}

int sl_uclamp_buckets(void)
{
	struct sl_rq_clamp rc;

	sl_read_rq_clamp(0, SL_UCLAMP_MIN, &rc);
	return rc.nr;
}

int sl_uclamp_bucket_of(unsigned int value)
{
	int nr = sl_uclamp_buckets();
	unsigned int delta = (SL_CAPACITY_SCALE + nr / 2) / nr;
	unsigned int b = value / delta;

	return b < (unsigned int)nr - 1 ? (int)b : nr - 1;
}

int sl_uclamp_counting(void)
{
	struct sl_rq_clamp rc;
	int n = sl_nr_cpus();

	for (int cpu = 0; cpu < n; cpu++)
		for (int id = SL_UCLAMP_MIN; id <= SL_UCLAMP_MAX; id++) {
			sl_read_rq_clamp(cpu, id, &rc);
			for (int b = 0; b < rc.nr; b++)
				if (rc.tasks[b])
					return 1;
		}
	return 0;
}

/*
 * The rq value once the tasks of the last bucket that the test does not
 * own (kernel threads, util_max 1024; RT ones, util_min 1024) have left:
 * the value of the top non-empty bucket below it, or 0 for util_min when
 * there is none; -1 when that cannot be known (util_max kept by an idle
 * CPU).  Their leaving is certain, so this is the value to check.
 */
static long value_without_foreign(const struct sl_rq_clamp *rc, int id)
{
	for (int b = rc->nr - 2; b >= 0; b--)
		if (rc->tasks[b])
			return rc->values[b];
	return id == SL_UCLAMP_MIN ? 0 : -1;
}

static void check_rq(const char *what, int cpu, int id, int b,
		     unsigned long tasks, long value, int poll)
{
	long end = sl_now_ms() + SL_SETTLE_MS, seen;
	struct sl_rq_clamp rc;
	int top, last, foreign;

	for (;;) {
		sl_read_rq_clamp(cpu, id, &rc);
		ck_assert_msg(b < rc.nr, "%s: bucket %d, but CPU%d has %d buckets",
			      what, b, cpu, rc.nr);
		top = sl_rq_clamp_top(&rc);
		ck_assert_msg(top < 0 || rc.value == rc.values[top],
			      "%s: CPU%d uclamp.%s is %u, but its top most bucket with tasks, %d (%lu task(s)), has value %lu: "
			      "while tasks are RUNNABLE, the rq value is the value of its top most non-empty bucket",
			      what, cpu, sl_clamp_name(id), rc.value, top,
			      rc.tasks[top], rc.values[top]);
		last = rc.nr - 1;
		foreign = rc.tasks[last] > (b == last ? tasks : 0);
		seen = foreign && b != last ? value_without_foreign(&rc, id) : (long)rc.value;
		if (rc.tasks[b] == tasks && (value < 0 || seen == value))
			return;
		/* only a count in the last bucket, or an unknown value, is left to settle */
		if (sl_now_ms() > end || !(poll || (foreign && (b == last || seen < 0))))
			break;
		usleep(SL_POLL_US);
	}
	ck_abort_msg("%s: CPU%d uclamp.%s: bucket %d has %lu task(s), rq value %u%s; expected %lu task(s)%s%ld",
		     what, cpu, sl_clamp_name(id), b, rc.tasks[b], rc.value,
		     foreign && b != last ? " (a kernel thread is in the last bucket)" : "",
		     tasks, value < 0 ? "" : " and rq value ", value);
}

void sl_expect_rq(const char *what, int cpu, int id, int b,
		  unsigned long tasks, long value)
{
	check_rq(what, cpu, id, b, tasks, value, 0);
}

void sl_await_rq(const char *what, int cpu, int id, int b,
		 unsigned long tasks, long value)
{
	check_rq(what, cpu, id, b, tasks, value, 1);
}

void sl_expect_effective(pid_t pid, long min, long max, const char *what)
{
	long emin = sl_proc_sched(pid, "effective uclamp.min");
	long emax = sl_proc_sched(pid, "effective uclamp.max");

	ck_assert_msg(emin == min && emax == max,
		      "%s: /proc/%d/sched shows effective uclamp.min %ld .max %ld, expected %ld %ld",
		      what, pid, emin, emax, min, max);
}

unsigned int sl_util_of_pct100(unsigned int pct100)
{
	return ((pct100 << 10) + 5000) / 10000;
}

char *sl_pct100_str(unsigned int pct100, char buf[16])
{
	snprintf(buf, 16, "%u.%02u", pct100 / 100, pct100 % 100);
	return buf;
}

void sl_uclamp_sysctl(const char *path, unsigned int val)
{
	char v[16];
	int ret;

	snprintf(v, sizeof(v), "%u", val);
	ret = sl_write_str(path, v);
	ck_assert_msg(ret == 0, "writing %s to %s: error %d", v, path, ret);
}

void sl_uclamp_sysctls_default(void)
{
	/* max first: the kernel refuses a min above the max */
	static const char *const sysctls[] = { SL_SYSCTL_UCLAMP_MAX, SL_SYSCTL_UCLAMP_MIN,
					       SL_SYSCTL_UCLAMP_MIN_RT };

	for (int i = 0; i < 3; i++)
		ck_assert_msg(sl_write_str(sysctls[i], "1024") == 0, "putting %s back to 1024 failed",
			      sysctls[i]);
}
