// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 5: sched_setattr() flags for utilization clamping.
 *
 * Everything goes through the raw sched_setattr()/sched_getattr() syscalls
 * on a sleeping child (or on a fresh child that does the calls itself), and
 * is cross-checked with /proc/PID/sched, which shows the requested
 * ("uclamp.min") and the effective ("effective uclamp.min") clamps.
 */
#include "schedlab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define KEEP_ALL	(SL_FLAG_KEEP_POLICY | SL_FLAG_KEEP_PARAMS)
#define CLAMPS		(SL_FLAG_UTIL_CLAMP_MIN | SL_FLAG_UTIL_CLAMP_MAX)
#define UNKNOWN_FLAG	0x100	/* not a sched_setattr() flag */

/* Set util_min/util_max of @pid, keeping or not its policy and params. */
static int set_clamps(pid_t pid, uint64_t flags, uint32_t min, uint32_t max)
{
	struct sl_attr a = {
		.size = SL_ATTR_SIZE_VER1,
		.sched_policy = SCHED_OTHER,
		.sched_flags = flags,
		.sched_util_min = min,
		.sched_util_max = max,
	};

	return sl_setattr(pid, &a, 0);
}

static void get(pid_t pid, struct sl_attr *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = sl_getattr(pid, a, sizeof(*a));
	ck_assert_msg(ret == 0, "sched_getattr(%d): error %d", pid, ret);
}

static void expect_clamps(pid_t pid, uint32_t min, uint32_t max, const char *what)
{
	struct sl_attr a;

	get(pid, &a);
	ck_assert_msg(a.sched_util_min == min && a.sched_util_max == max,
		      "%s: sched_getattr reports util_min %u util_max %u, expected %u %u",
		      what, a.sched_util_min, a.sched_util_max, min, max);
	ck_assert_msg(sl_proc_sched(pid, "effective uclamp.min") == min &&
		      sl_proc_sched(pid, "effective uclamp.max") == max,
		      "%s: /proc/%d/sched shows effective uclamp.min %ld .max %ld, expected %u %u",
		      what, pid, sl_proc_sched(pid, "effective uclamp.min"),
		      sl_proc_sched(pid, "effective uclamp.max"), min, max);
}

static pid_t sleeper(void)
{
	pid_t pid;

	ck_assert_int_eq(sl_spawn_sleepers(&pid, 1), 0);
	return pid;
}

static void set_fifo(pid_t pid, int prio, uint64_t flags)
{
	struct sl_attr a = {
		.size = SL_ATTR_SIZE_VER0,
		.sched_policy = SCHED_FIFO,
		.sched_priority = prio,
		.sched_flags = flags,
	};
	int ret = sl_setattr(pid, &a, 0);

	ck_assert_msg(ret == 0, "making %d SCHED_FIFO: error %d", pid, ret);
}

START_TEST(test_clamps_keep_all)
{
	pid_t p = sleeper();
	int ret = set_clamps(p, KEEP_ALL | CLAMPS, 200, 800);

	ck_assert_msg(ret == 0, "KEEP_POLICY|KEEP_PARAMS|UTIL_CLAMP_MIN|MAX: error %d", ret);
	expect_clamps(p, 200, 800, "after setting 200/800 with KEEP_ALL");
	sl_reap(&p, 1);
}
END_TEST

START_TEST(test_clamps_with_policy)
{
	pid_t p = sleeper();
	int ret = set_clamps(p, CLAMPS, 300, 600);

	ck_assert_msg(ret == 0, "SCHED_OTHER with UTIL_CLAMP_MIN|MAX: error %d", ret);
	expect_clamps(p, 300, 600, "after setting 300/600 with policy SCHED_OTHER");
	/* one clamp at a time: the other one stays */
	ret = set_clamps(p, KEEP_ALL | SL_FLAG_UTIL_CLAMP_MAX, 0, 700);
	ck_assert_msg(ret == 0, "UTIL_CLAMP_MAX alone: error %d", ret);
	expect_clamps(p, 300, 700, "after setting only util_max 700");
	sl_reap(&p, 1);
}
END_TEST

/* KEEP_POLICY keeps SCHED_FIFO (the attr says SCHED_OTHER); KEEP_PARAMS its priority. */
START_TEST(test_keep_policy_rt)
{
	pid_t p = sleeper();
	struct sl_attr a;
	int ret;

	set_fifo(p, 10, 0);
	ret = set_clamps(p, KEEP_ALL | CLAMPS, 100, 900);
	ck_assert_msg(ret == 0, "KEEP_ALL on a SCHED_FIFO task: error %d", ret);
	get(p, &a);
	ck_assert_msg(a.sched_policy == SCHED_FIFO && a.sched_priority == 10,
		      "a SCHED_FIFO prio 10 task became policy %u prio %u after a KEEP_ALL clamp change",
		      a.sched_policy, a.sched_priority);
	expect_clamps(p, 100, 900, "SCHED_FIFO task after 100/900");
	sl_reap(&p, 1);
}
END_TEST

/* A nice 5 task keeps its nice value and policy under KEEP_ALL (the attr says nice 0). */
START_TEST(test_keep_params_nice)
{
	pid_t p = sleeper();
	struct sl_attr a;
	int ret;

	ck_assert_int_eq(setpriority(PRIO_PROCESS, p, 5), 0);
	ret = set_clamps(p, KEEP_ALL | CLAMPS, 250, 500);
	ck_assert_msg(ret == 0, "KEEP_ALL: error %d", ret);
	errno = 0;
	ret = getpriority(PRIO_PROCESS, p);
	ck_assert_msg(ret == 5, "nice 5 became %d after a KEEP_ALL clamp change", ret);
	get(p, &a);
	ck_assert_msg(a.sched_policy == SCHED_OTHER && a.sched_nice == 5,
		      "sched_getattr: policy %u nice %d, expected SCHED_OTHER nice 5",
		      a.sched_policy, a.sched_nice);
	expect_clamps(p, 250, 500, "nice 5 task after 250/500");
	sl_reap(&p, 1);
}
END_TEST

START_TEST(test_einval_min_gt_max)
{
	pid_t p = sleeper();
	int ret = set_clamps(p, KEEP_ALL | CLAMPS, 800, 200);

	ck_assert_msg(ret == -EINVAL, "util_min 800 > util_max 200: got %d, expected -EINVAL", ret);
	/* against the current value too */
	ck_assert_int_eq(set_clamps(p, KEEP_ALL | CLAMPS, 0, 300), 0);
	ret = set_clamps(p, KEEP_ALL | SL_FLAG_UTIL_CLAMP_MIN, 400, 0);
	ck_assert_msg(ret == -EINVAL, "util_min 400 > current util_max 300: got %d, expected -EINVAL", ret);
	expect_clamps(p, 0, 300, "after the refused requests");
	sl_reap(&p, 1);
}
END_TEST

START_TEST(test_einval_above_scale)
{
	pid_t p = sleeper();
	int ret = set_clamps(p, KEEP_ALL | SL_FLAG_UTIL_CLAMP_MAX, 0, 1025);

	ck_assert_msg(ret == -EINVAL, "util_max 1025: got %d, expected -EINVAL", ret);
	ret = set_clamps(p, KEEP_ALL | SL_FLAG_UTIL_CLAMP_MIN, 1025, 0);
	ck_assert_msg(ret == -EINVAL, "util_min 1025: got %d, expected -EINVAL", ret);
	ret = set_clamps(p, KEEP_ALL | CLAMPS, 1024, 1024);
	ck_assert_msg(ret == 0, "util_min = util_max = 1024: got %d, expected 0", ret);
	expect_clamps(p, 1024, 1024, "after 1024/1024");
	sl_reap(&p, 1);
}
END_TEST

/* The clamp fields exist from SCHED_ATTR_SIZE_VER1 (56 bytes) on. */
START_TEST(test_einval_ver0_size)
{
	pid_t p = sleeper();
	struct sl_attr a = {
		.size = SL_ATTR_SIZE_VER0,
		.sched_policy = SCHED_OTHER,
		.sched_flags = KEEP_ALL | SL_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = 100,
	};
	int ret = sl_setattr(p, &a, 0);

	ck_assert_msg(ret == -EINVAL, "UTIL_CLAMP_MIN with a %d-byte (VER0) attr: got %d, expected -EINVAL",
		      SL_ATTR_SIZE_VER0, ret);
	a.size = SL_ATTR_SIZE_VER1;
	ret = sl_setattr(p, &a, 0);
	ck_assert_msg(ret == 0, "the same with a %d-byte (VER1) attr: got %d, expected 0",
		      SL_ATTR_SIZE_VER1, ret);
	expect_clamps(p, 100, 1024, "after util_min 100 (VER1)");
	sl_reap(&p, 1);
}
END_TEST

START_TEST(test_einval_unknown_flag)
{
	pid_t p = sleeper();
	int ret = set_clamps(p, KEEP_ALL | CLAMPS | UNKNOWN_FLAG, 100, 200);

	ck_assert_msg(ret == -EINVAL, "flag 0x%x: got %d, expected -EINVAL", UNKNOWN_FLAG, ret);
	ret = set_clamps(p, KEEP_ALL | CLAMPS, 100, 200);
	ck_assert_msg(ret == 0, "without it: got %d, expected 0", ret);
	sl_reap(&p, 1);
}
END_TEST

/* sched_getattr returns what was set, -1 resets to the defaults. */
START_TEST(test_getattr_round_trip)
{
	pid_t p = sleeper();
	struct sl_attr a;

	expect_clamps(p, 0, 1024, "a new SCHED_OTHER task");
	ck_assert_int_eq(set_clamps(p, KEEP_ALL | CLAMPS, 123, 456), 0);
	get(p, &a);
	ck_assert_msg(a.size == SL_ATTR_SIZE_VER1, "sched_getattr size %u, expected %d",
		      a.size, SL_ATTR_SIZE_VER1);
	expect_clamps(p, 123, 456, "after 123/456");
	ck_assert_msg(sl_proc_sched(p, "uclamp.min") == 123 && sl_proc_sched(p, "uclamp.max") == 456,
		      "/proc/%d/sched: uclamp.min %ld .max %ld, expected 123 456", p,
		      sl_proc_sched(p, "uclamp.min"), sl_proc_sched(p, "uclamp.max"));
	ck_assert_int_eq(set_clamps(p, KEEP_ALL | CLAMPS, (uint32_t)-1, (uint32_t)-1), 0);
	expect_clamps(p, 0, 1024, "after -1/-1 (back to the defaults)");
	sl_reap(&p, 1);
}
END_TEST

/* RT tasks default to util_min 1024; back to SCHED_OTHER, 0 again. */
START_TEST(test_rt_default_min)
{
	pid_t p = sleeper();

	set_fifo(p, 5, 0);
	expect_clamps(p, 1024, 1024, "a task made SCHED_FIFO");
	ck_assert_int_eq(sl_set_other(p), 0);
	expect_clamps(p, 0, 1024, "the same task back to SCHED_OTHER");
	set_fifo(p, 5, 0);
	expect_clamps(p, 1024, 1024, "made SCHED_FIFO again");
	sl_reap(&p, 1);
}
END_TEST

/* A user-defined util_min survives class changes both ways. */
START_TEST(test_user_defined_survives)
{
	pid_t p = sleeper();

	ck_assert_int_eq(set_clamps(p, KEEP_ALL | SL_FLAG_UTIL_CLAMP_MIN, 300, 0), 0);
	set_fifo(p, 5, 0);
	expect_clamps(p, 300, 1024, "user-defined util_min 300, then SCHED_FIFO");
	ck_assert_int_eq(sl_set_other(p), 0);
	expect_clamps(p, 300, 1024, "then SCHED_OTHER");
	/* set while RT */
	set_fifo(p, 5, 0);
	ck_assert_int_eq(set_clamps(p, KEEP_ALL | SL_FLAG_UTIL_CLAMP_MIN, 200, 0), 0);
	ck_assert_int_eq(sl_set_other(p), 0);
	set_fifo(p, 7, 0);
	expect_clamps(p, 200, 1024, "util_min 200 set while RT, then OTHER, then FIFO");
	sl_reap(&p, 1);
}
END_TEST

/*
 * A SCHED_FIFO task with RESET_ON_FORK forks: the child is SCHED_OTHER with
 * default clamps (even the parent's user-defined ones are dropped); made RT
 * it gets util_min 1024.  Without RESET_ON_FORK an RT child is RT with
 * util_min 1024.
 */
START_TEST(test_rt_fork)
{
	int fds[2];
	pid_t parent, child;
	struct sl_attr a;

	ck_assert_int_eq(pipe(fds), 0);
	parent = fork();
	ck_assert_int_ge(parent, 0);
	if (parent == 0) {
		pid_t kids[2];

		set_fifo(0, 5, 0);
		kids[0] = fork();
		if (kids[0] == 0)
			for (;;)
				pause();
		set_fifo(0, 5, SCHED_FLAG_RESET_ON_FORK);
		set_clamps(0, KEEP_ALL | SL_FLAG_UTIL_CLAMP_MAX, 0, 900);
		kids[1] = fork();
		if (kids[1] == 0)
			for (;;)
				pause();
		ck_assert_int_eq(write(fds[1], kids, sizeof(kids)), sizeof(kids));
		for (;;)
			pause();
	}
	{
		pid_t kids[2];

		ck_assert_int_eq(read(fds[0], kids, sizeof(kids)), sizeof(kids));
		get(kids[0], &a);
		ck_assert_msg(a.sched_policy == SCHED_FIFO, "child of a FIFO task: policy %u", a.sched_policy);
		expect_clamps(kids[0], 1024, 1024, "RT child of an RT task");
		get(kids[1], &a);
		ck_assert_msg(a.sched_policy == SCHED_OTHER,
			      "child of a RESET_ON_FORK FIFO task: policy %u, expected SCHED_OTHER",
			      a.sched_policy);
		expect_clamps(kids[1], 0, 1024, "RESET_ON_FORK child (parent had util_max 900)");
		set_fifo(kids[1], 5, 0);
		expect_clamps(kids[1], 1024, 1024, "RESET_ON_FORK child made SCHED_FIFO");
		child = kids[0];
		sl_reap(&child, 1);
		child = kids[1];
		sl_reap(&child, 1);
	}
	sl_reap(&parent, 1);
}
END_TEST

/* /proc/PID/sched shows the effective values the task runs with. */
START_TEST(test_proc_sched_effective)
{
	pid_t p = sleeper();

	ck_assert_int_eq(set_clamps(p, CLAMPS, 111, 777), 0);
	ck_assert_msg(sl_proc_sched(p, "effective uclamp.min") == 111 &&
		      sl_proc_sched(p, "effective uclamp.max") == 777,
		      "/proc/%d/sched: effective uclamp.min %ld .max %ld, expected 111 777", p,
		      sl_proc_sched(p, "effective uclamp.min"), sl_proc_sched(p, "effective uclamp.max"));
	sl_reap(&p, 1);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab05", NULL, NULL);

	sl_add_test(s, test_clamps_keep_all);
	sl_add_test(s, test_clamps_with_policy);
	sl_add_test(s, test_keep_policy_rt);
	sl_add_test(s, test_keep_params_nice);
	sl_add_test(s, test_einval_min_gt_max);
	sl_add_test(s, test_einval_above_scale);
	sl_add_test(s, test_einval_ver0_size);
	sl_add_test(s, test_einval_unknown_flag);
	sl_add_test(s, test_getattr_round_trip);
	sl_add_test(s, test_rt_default_min);
	sl_add_test(s, test_user_defined_survives);
	sl_add_test(s, test_rt_fork);
	sl_add_test(s, test_proc_sched_effective);
	return s;
}
