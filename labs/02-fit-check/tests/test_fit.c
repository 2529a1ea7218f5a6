// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 2: a waking SCHED_DEADLINE task goes to a free CPU that fits it.
 *
 * Each test starts a task on a CPU chosen to be wrong, lets it sleep and
 * wake up WAKEUPS times and checks the CPU it runs on after every wakeup.
 * A task "fits" a CPU when runtime / deadline x 1024 <= the CPU's
 * capacity.  The suite runs on three capacity tiers (TOPOLOGY=three-tier:
 * 256 512 1024 1024), the only way to tell "the slowest CPU that fits"
 * from "any CPU that fits" and "the fastest CPU when none fits" from
 * "the slowest one".
 *
 * Not statistical: every wakeup must be right.  With no other -deadline
 * task in the system every CPU is free, and cpudl_find() leaves exactly
 * the expected CPUs in later_mask, so find_later_rq() can only return one
 * of them, however slow the emulation (TCG) is.  The period is long (1 s)
 * so that the sleeps, even when emulation stretches them, barely change
 * the remaining-runtime demand of a woken task (runtime left / time to
 * the deadline); the demands below keep a wide margin to every capacity.
 *
 * SCHED_DEADLINE tasks may not have an affinity smaller than their root
 * domain (sched_setattr() and sched_setaffinity() refuse), so the tests
 * about affinity put the task in a cgroup v2 cpuset partition, which is a
 * root domain of its own.
 */
#include "placement.h"

#include <stdio.h>

#define PERIOD		(1000 * NSEC_PER_MSEC)
#define WAKEUPS		20
#define SLEEP_US	2000
#define PARTITION	"lab02"

struct tiers {
	int slow, mid, fast;	/* one CPU of each tier */
	unsigned long cap_slow, cap_mid, cap_fast;
};

/* Three capacity tiers, read from sysfs. */
static void get_tiers(struct tiers *t)
{
	t->slow = pl_slowest_cpu();
	t->fast = pl_fastest_cpu();
	t->cap_slow = sl_cpu_capacity(t->slow);
	t->cap_fast = sl_cpu_capacity(t->fast);
	t->mid = -1;
	for (int i = 0; i < sl_nr_cpus(); i++) {
		unsigned long c = sl_cpu_capacity(i);

		if (c > t->cap_slow && c < t->cap_fast &&
		    (t->mid < 0 || c < sl_cpu_capacity(t->mid)))
			t->mid = i;
	}
	ck_assert_msg(t->mid >= 0,
		      "this test needs three capacity tiers (TOPOLOGY=three-tier), the CPUs have only %lu and %lu",
		      t->cap_slow, t->cap_fast);
	t->cap_mid = sl_cpu_capacity(t->mid);
}

/* A runtime whose demand (capacity units) is @cap over PERIOD. */
static uint64_t runtime_for(unsigned long cap)
{
	return PERIOD * cap / SL_CAPACITY_SCALE;
}

/* Run @spec and check that every wakeup is on a CPU of capacity @want. */
static void expect_capacity(const struct pl_spec *spec, unsigned long want,
			    const char *why)
{
	struct pl_result res;
	unsigned long demand = pl_demand(spec->runtime, spec->deadline);

	pl_run(spec, &res);
	for (int i = 0; i < res.n; i++) {
		unsigned long cap = sl_cpu_capacity(res.cpu[i]);

		ck_assert_msg(cap == want,
			      "wakeup %d of %d: the task (demand %lu, started on CPU %d) ran on CPU %d of capacity %lu; expected a CPU of capacity %lu (%s)",
			      i + 1, res.n, demand, spec->start_cpu, res.cpu[i],
			      cap, want, why);
	}
}

/* Run @spec and check that every wakeup is on CPU @want. */
static void expect_cpu(const struct pl_spec *spec, int want, const char *why)
{
	struct pl_result res;
	unsigned long demand = pl_demand(spec->runtime, spec->deadline);

	pl_run(spec, &res);
	for (int i = 0; i < res.n; i++)
		ck_assert_msg(res.cpu[i] == want,
			      "wakeup %d of %d: the task (demand %lu, started on CPU %d) ran on CPU %d of capacity %lu; expected CPU %d of capacity %lu (%s)",
			      i + 1, res.n, demand, spec->start_cpu, res.cpu[i],
			      sl_cpu_capacity(res.cpu[i]), want,
			      sl_cpu_capacity(want), why);
}

/* Demand between the middle and the top tier: fits only the big CPUs. */
START_TEST(test_big_task_wakes_on_big_cpu)
{
	struct tiers t;
	struct pl_spec spec = { .deadline = PERIOD, .period = PERIOD,
				.wakeups = WAKEUPS, .sleep_us = SLEEP_US };

	get_tiers(&t);
	spec.start_cpu = t.slow;
	spec.runtime = runtime_for(t.cap_mid + (t.cap_fast - t.cap_mid) / 5);
	expect_capacity(&spec, t.cap_fast,
			"only the biggest CPUs fit it, and they are free");
}
END_TEST

/* Demand well below the slowest tier: the slowest CPU fits, prefer it. */
START_TEST(test_small_task_wakes_on_slowest_cpu)
{
	struct tiers t;
	struct pl_spec spec = { .deadline = PERIOD, .period = PERIOD,
				.wakeups = WAKEUPS, .sleep_us = SLEEP_US };

	get_tiers(&t);
	spec.start_cpu = t.fast;
	spec.runtime = runtime_for(t.cap_slow * 6 / 10);
	expect_capacity(&spec, t.cap_slow,
			"every CPU fits it and a free CPU of the slowest tier is the best fit");
}
END_TEST

/* Demand between the slowest and the middle tier: the middle tier. */
START_TEST(test_medium_task_wakes_on_slowest_fitting_cpu)
{
	struct tiers t;
	struct pl_spec spec = { .deadline = PERIOD, .period = PERIOD,
				.wakeups = WAKEUPS, .sleep_us = SLEEP_US };

	get_tiers(&t);
	spec.start_cpu = t.fast;
	spec.runtime = runtime_for((t.cap_slow + t.cap_mid) / 2);
	expect_capacity(&spec, t.cap_mid,
			"the slowest CPUs do not fit it; of those that do, the middle tier is the slowest");
}
END_TEST

/*
 * A partition of a slow and a middle CPU, and a task that fits neither:
 * it must go to the faster of the two (less tardiness), never the slower.
 */
START_TEST(test_misfit_task_wakes_on_fastest_cpu_of_mask)
{
	struct tiers t;
	struct pl_spec spec = { .cgroup = PARTITION, .deadline = PERIOD,
				.period = PERIOD, .wakeups = WAKEUPS,
				.sleep_us = SLEEP_US };
	char cpus[32];

	get_tiers(&t);
	snprintf(cpus, sizeof(cpus), "%d,%d", t.slow, t.mid);
	pl_make_partition(PARTITION, cpus);
	spec.start_cpu = t.slow;
	spec.runtime = runtime_for(t.cap_mid + (t.cap_fast - t.cap_mid) / 5);
	expect_cpu(&spec, t.mid,
		   "no CPU of its cpuset partition fits it, so the fastest of them");
	pl_remove_partition(PARTITION);
}
END_TEST

/*
 * A partition of a slow and a big CPU, and a task that fits the middle
 * tier: the slowest CPU that fits in the whole system is outside the
 * partition, the big CPU is the only one that fits within it.
 */
START_TEST(test_placement_respects_affinity)
{
	struct tiers t;
	struct pl_spec spec = { .cgroup = PARTITION, .deadline = PERIOD,
				.period = PERIOD, .wakeups = WAKEUPS,
				.sleep_us = SLEEP_US };
	char cpus[32];

	get_tiers(&t);
	snprintf(cpus, sizeof(cpus), "%d,%d", t.slow, t.fast);
	pl_make_partition(PARTITION, cpus);
	spec.start_cpu = t.slow;
	spec.runtime = runtime_for((t.cap_slow + t.cap_mid) / 2);
	expect_cpu(&spec, t.fast,
		   "of the CPUs of its cpuset partition only this one fits it");
	pl_remove_partition(PARTITION);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab02", NULL, NULL);

	sl_add_test(s, test_big_task_wakes_on_big_cpu);
	sl_add_test(s, test_small_task_wakes_on_slowest_cpu);
	sl_add_test(s, test_medium_task_wakes_on_slowest_fitting_cpu);
	sl_add_test(s, test_misfit_task_wakes_on_fastest_cpu_of_mask);
	sl_add_test(s, test_placement_respects_affinity);
	return s;
}
