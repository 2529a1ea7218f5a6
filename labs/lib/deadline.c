// SPDX-License-Identifier: GPL-2.0
/* deadline.c - SCHED_DEADLINE tasks under test; see deadline.h. */
#include "deadline.h"
#include "cgroup.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

uint64_t sl_to_ratio(uint64_t period, uint64_t runtime)
{
	return period ? (runtime << SL_BW_SHIFT) / period : 0;
}

uint64_t sl_dl_bw(const struct sl_dl *dl)
{
	return sl_to_ratio(dl->period, dl->runtime);
}

unsigned long sl_dl_demand(const struct sl_dl *dl)
{
	return sl_to_ratio(dl->deadline, dl->runtime) >> (SL_BW_SHIFT - 10);
}

int sl_slowest_cpu(void)
{
	int best = 0, n = sl_nr_cpus();

	for (int i = 1; i < n; i++)
		if (sl_cpu_capacity(i) < sl_cpu_capacity(best))
			best = i;
	return best;
}

int sl_fastest_cpu(void)
{
	int best = sl_nr_cpus() - 1;

	for (int i = best - 1; i >= 0; i--)
		if (sl_cpu_capacity(i) > sl_cpu_capacity(best))
			best = i;
	return best;
}

unsigned long sl_dl_offered(unsigned long demand, unsigned int free_cpus)
{
	unsigned long fit = 0, fastest = 0;

	for (int i = 0, n = sl_nr_cpus(); i < n; i++) {
		unsigned long c = sl_cpu_capacity(i);

		if (!(free_cpus & (1U << i)))
			continue;
		if (c >= demand && (!fit || c < fit))
			fit = c;
		if (c > fastest)
			fastest = c;
	}
	return fit ? fit : fastest;
}

void sl_child_become_dl(const char *grp, int cpu, const struct sl_dl *dl)
{
	struct sched_param fifo = { .sched_priority = 1 };
	char step[64];
	int ret;

	if (grp) {
		/*
		 * Join while running: a sleeping task moved into a partition
		 * keeps its old runqueue until it wakes, and sched_setattr()
		 * then refuses SCHED_DEADLINE (EPERM).
		 */
		snprintf(step, sizeof(step), "joining cgroup %s", grp);
		ret = sl_cg_move(grp, 0);
		if (ret)
			sl_child_fail(step, ret);
	}
	snprintf(step, sizeof(step), "pinning itself to CPU %d", cpu);
	ret = sl_pin(0, cpu);
	if (ret)
		sl_child_fail(step, ret);
	/* sched_setaffinity() migrates the caller before it returns. */
	if (sched_getcpu() != cpu)
		sl_child_fail(step, -EAGAIN);
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		sl_child_fail("becoming SCHED_FIFO", -errno);
	ret = sl_unpin(0);
	if (ret)
		sl_child_fail("widening its affinity", ret);
	ret = sl_set_dl(0, dl->runtime, dl->deadline, dl->period);
	if (ret)
		sl_child_fail("sched_setattr(SCHED_DEADLINE)", ret);
	snprintf(step, sizeof(step), "staying on CPU %d through sched_setattr()", cpu);
	if (sched_getcpu() != cpu)
		sl_child_fail(step, -EAGAIN);
}

struct spinner_arg {
	int cpu;
	struct sl_dl dl;
};

static void spinner(const void *arg, void *res)
{
	const struct spinner_arg *a = arg;

	sl_child_become_dl(NULL, a->cpu, &a->dl);
	sl_child_ready();
	for (;;)
		;
}

void sl_dl_spinner(struct sl_child *c, int cpu, const struct sl_dl *dl)
{
	struct spinner_arg a = { .cpu = cpu, .dl = *dl };

	sl_child_start(c, spinner, &a, sizeof(struct sl_report));
	sl_child_wait_ready(c);
}

void sl_avoid_cpu(int cpu)
{
	cpu_set_t mine;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(mine), &mine), 0);
	CPU_CLR(cpu, &mine);
	ck_assert_msg(sched_setaffinity(0, sizeof(mine), &mine) == 0,
		      "moving the test off CPU %d: %s", cpu, strerror(errno));
}

void sl_dl_hog(struct sl_child *c, int cpu)
{
	const uint64_t p = 2000 * NSEC_PER_MSEC;
	const struct sl_dl dl = { p, p, p };

	sl_avoid_cpu(cpu);
	sl_dl_spinner(c, cpu, &dl);
}

void sl_hogs_start(struct sl_hogs *h, unsigned long cap)
{
	int n = sl_nr_cpus();

	for (int i = 0; i < n; i++)
		if (sl_cpu_capacity(i) == cap)
			sl_dl_hog(&h->c[h->n++], i);
}

void sl_hogs_stop(struct sl_hogs *h)
{
	for (int i = 0; i < h->n; i++)
		sl_child_kill(&h->c[i]);
	h->n = 0;
}

int sl_read_dl_bw(struct sl_dl_bw bw[SL_MAX_CPUS])
{
	unsigned long long run, this, total;
	unsigned long cap;
	char line[160], span[32];
	const char *c;
	int cpu, n = 0;
	FILE *f;

	f = fopen(SL_DL_BW_FILE, "r");
	ck_assert_msg(f != NULL, "cannot open %s: %s (the kit's instrumentation is missing)",
		      SL_DL_BW_FILE, strerror(errno));
	memset(bw, 0, SL_MAX_CPUS * sizeof(*bw));
	while (fgets(line, sizeof(line), f)) {
		/*
		 * Between span and capacity: free (the init reads it; a tree
		 * set up before the kit had it has none).
		 */
		c = strstr(line, " capacity ");
		ck_assert_msg(sscanf(line, "cpu%d running_bw %llu this_bw %llu total_bw %llu span %31s",
				     &cpu, &run, &this, &total, span) == 5 &&
			      c && sscanf(c, " capacity %lu", &cap) == 1 &&
			      cpu >= 0 && cpu < SL_MAX_CPUS,
			      "cannot parse \"%s\" in %s", line, SL_DL_BW_FILE);
		bw[cpu].running_bw = run;
		bw[cpu].this_bw = this;
		bw[cpu].total_bw = total;
		snprintf(bw[cpu].span, sizeof(bw[cpu].span), "%s", span);
		bw[cpu].capacity = cap;
		if (cpu + 1 > n)
			n = cpu + 1;
	}
	fclose(f);
	return n;
}

int sl_dl_bw_settle(pid_t pid, uint64_t bw, struct sl_dl_bw b[SL_MAX_CPUS], int *cpu)
{
	double end = sl_now_ms() + SL_DL_IDLE_MS;
	int n, bad = 0;

	do {
		int before = pid ? sl_task_cpu(pid) : -1;

		n = sl_read_dl_bw(b);
		*cpu = pid ? sl_task_cpu(pid) : -1;
		if (*cpu != before)
			continue;	/* it moved while we read */
		bad = -1;
		for (int i = 0; i < n; i++) {
			uint64_t want = i == *cpu ? bw : 0;

			if (b[i].running_bw != want || b[i].this_bw != want ||
			    (!pid && b[i].total_bw))
				bad = i;
		}
		if (bad < 0)
			return -1;
		usleep(SL_POLL_US);
	} while (sl_now_ms() < end);
	return bad;
}

void sl_wait_dl_idle(void)
{
	struct sl_dl_bw b[SL_MAX_CPUS];
	int cpu, bad = sl_dl_bw_settle(0, 0, b, &cpu);

	ck_assert_msg(bad < 0,
		      "%d ms after the last deadline task was gone, CPU %d still has running_bw %llu and this_bw %llu, and its root domain (CPUs %s) admits %.4f CPU of bandwidth",
		      SL_DL_IDLE_MS, bad, (unsigned long long)b[bad].running_bw,
		      (unsigned long long)b[bad].this_bw, b[bad].span,
		      (double)b[bad].total_bw / SL_BW_UNIT);
}
