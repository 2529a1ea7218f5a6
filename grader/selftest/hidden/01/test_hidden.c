// SPDX-License-Identifier: GPL-2.0
/*
 * A sample of an instructor's hidden tests for lab 1 (HIDDEN_TESTS=dir, one
 * folder a lab, each defining lab_suite()).  make test grades the starter
 * and the reference with it: it must fail on one and pass on the other,
 * and be reported apart from the lab's public tests.
 */
#include "deadline.h"

#include <errno.h>

#define MAX_TASKS 32

/*
 * Admission of 30/100 ms tasks: another bandwidth than the public tests.
 * The whole machine (one root domain) admits
 * cap_scale(to_ratio(rt period, rt runtime), capacity sum), in the
 * kernel's fixed point; counting CPUs as 1024 each admits more.
 */
START_TEST(test_hidden_admits_30_of_100)
{
	uint64_t runtime = 30 * NSEC_PER_MSEC, period = 100 * NSEC_PER_MSEC;
	uint64_t bw = sl_to_ratio(period, runtime), limit;
	unsigned long cap = 0;
	pid_t pids[MAX_TASKS] = { 0 };
	int n, want;

	sl_wait_dl_idle();
	for (int i = 0; i < sl_nr_cpus(); i++)
		cap += sl_cpu_capacity(i);
	limit = sl_to_ratio(sl_rt_period_us() * NSEC_PER_USEC,
			    sl_rt_runtime_us() * NSEC_PER_USEC) * cap >> 10;
	want = limit / bw;
	ck_assert_int_eq(sl_spawn_sleepers(pids, MAX_TASKS), 0);
	for (n = 0; n < MAX_TASKS; n++)
		if (sl_set_dl(pids[n], runtime, period, period))
			break;
	sl_reap(pids, MAX_TASKS);
	ck_assert_msg(n == want, "admitted %d tasks of 30/100 ms, capacity %lu admits %d",
		      n, cap, want);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab01-hidden", NULL, NULL);

	sl_add_test(s, test_hidden_admits_30_of_100);
	return s;
}
