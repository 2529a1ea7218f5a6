// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1: SCHED_DEADLINE admission control sums CPU capacities.
 *
 * Each test makes sleeping children SCHED_DEADLINE one by one until the
 * kernel refuses with EBUSY, and compares the count with what a capacity
 * sum allows: floor(sum(cpu_capacity) / 1024 * rt_runtime / rt_period /
 * (runtime / period)), in the kernel's fixed point.  A CPU count gives a
 * larger number on an asymmetric machine.
 */
#include "schedlab.h"

#include <errno.h>
#include <stdio.h>

#define MAX_TASKS 64
#define RUNTIME (50 * NSEC_PER_MSEC)
#define PERIOD (100 * NSEC_PER_MSEC)

static unsigned long capacity_sum(void)
{
	unsigned long sum = 0;

	for (int i = 0; i < sl_nr_cpus(); i++)
		sum += sl_cpu_capacity(i);
	return sum;
}

/* Make sleepers DL (runtime/period) until refused; returns how many. */
static int admit_until_refused(pid_t *pids, uint64_t runtime, uint64_t period)
{
	int n;

	ck_assert_int_eq(sl_spawn_sleepers(pids, MAX_TASKS), 0);
	for (n = 0; n < MAX_TASKS; n++) {
		int ret = sl_set_dl(pids[n], runtime, period, period);

		if (ret == -EBUSY)
			break;
		ck_assert_msg(ret == 0, "sched_setattr: unexpected error %d", ret);
	}
	return n;
}

START_TEST(test_admits_capacity_sum)
{
	pid_t pids[MAX_TASKS] = { 0 };
	unsigned long cap = capacity_sum();
	int want = sl_expected_admitted(cap, RUNTIME, PERIOD);
	int got = admit_until_refused(pids, RUNTIME, PERIOD);

	sl_reap(pids, MAX_TASKS);
	ck_assert_msg(got == want,
		      "admitted %d tasks of 50/100 ms; capacity sum %lu allows %d (a count of %d CPUs would allow %d)",
		      got, cap, want, sl_nr_cpus(),
		      sl_expected_admitted(sl_nr_cpus() * 1024UL, RUNTIME, PERIOD));
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = suite_create("lab01");
	TCase *tc = tcase_create("admission");

	tcase_add_test(tc, test_admits_capacity_sum);
	suite_add_tcase(s, tc);
	return s;
}
