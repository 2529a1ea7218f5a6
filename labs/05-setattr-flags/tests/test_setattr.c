// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 5: sched_setattr() flags for utilization clamping.
 *
 * Everything goes through the raw sched_setattr()/sched_getattr() syscalls
 * on a sleeping child (or on a child that does the calls itself), and is
 * cross-checked with /proc/PID/sched, which shows the requested
 * ("uclamp.min") and the effective ("effective uclamp.min") clamps, and,
 * for a running task, with the runqueue's clamp buckets (lab 4).
 *
 * A step that later checks build on is made with given(): when it fails,
 * the test says that precondition did not hold, rather than blaming the
 * check after it.  Tests that change the RT default sysctl leave it at
 * 1024 (sl_suite_cleanup()), even when they fail.
 */
#include "deadline.h"
#include "task.h"
#include "uclamp.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define KEEP_ALL	(SL_FLAG_KEEP_POLICY | SL_FLAG_KEEP_PARAMS)
#define CLAMP_MIN	SL_FLAG_UTIL_CLAMP_MIN
#define CLAMP_MAX	SL_FLAG_UTIL_CLAMP_MAX
#define CLAMPS		(CLAMP_MIN | CLAMP_MAX)
#define UNKNOWN_FLAG	0x100	/* not a sched_setattr() flag */
#define RESET		((uint32_t)-1)	/* sched_util_{min,max}: back to the default */

/* A VER1 attr: policy, RT priority, nice, flags, util_min, util_max. */
#define ATTR(pol, pri, ni, fl, min, max) { .size = SL_ATTR_SIZE_VER1, \
	.sched_policy = (pol), .sched_priority = (pri), .sched_nice = (ni), \
	.sched_flags = (fl), .sched_util_min = (min), .sched_util_max = (max) }

/* Set util_min/util_max of @pid (policy SCHED_OTHER unless a flag keeps it). */
SL_MUST_CHECK static int set_clamps(pid_t pid, uint64_t flags, uint32_t min, uint32_t max)
{
	struct sl_attr a = ATTR(SCHED_OTHER, 0, 0, flags, min, max);

	return sl_setattr(pid, &a, 0);
}

static void get(pid_t pid, struct sl_attr *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = sl_getattr(pid, a, sizeof(*a));
	ck_assert_msg(ret == 0, "sched_getattr(%d): error %d", pid, ret);
}

/* sched_getattr and /proc/PID/sched both show @min/@max. */
static void expect_clamps(pid_t pid, uint32_t min, uint32_t max, const char *what)
{
	struct sl_attr a;

	get(pid, &a);
	ck_assert_msg(a.sched_util_min == min && a.sched_util_max == max,
		      "%s: sched_getattr reports util_min %u util_max %u, expected %u %u",
		      what, a.sched_util_min, a.sched_util_max, min, max);
	sl_expect_effective(pid, min, max, what);
}

/*
 * A step the rest of the test builds on: set the clamps, which must then
 * read back as @min/@max; if not, say so (what is checked next would fail
 * for this reason, not its own).
 */
static void given(pid_t pid, uint64_t flags, uint32_t set_min, uint32_t set_max,
		  uint32_t min, uint32_t max, const char *what)
{
	int ret = set_clamps(pid, flags, set_min, set_max);
	struct sl_attr a;

	get(pid, &a);
	ck_assert_msg(ret == 0 && a.sched_util_min == min && a.sched_util_max == max,
		      "precondition: %s was not applied (sched_setattr returned %d; sched_getattr "
		      "reports util_min %u util_max %u, expected %u %u), and the checks after it need it",
		      what, ret, a.sched_util_min, a.sched_util_max, min, max);
}

/* A sched_setattr() call that must succeed. */
static void ok(int ret, const char *what)
{
	ck_assert_msg(ret == 0, "%s: sched_setattr returned %d, expected 0", what, ret);
}

static pid_t sleeper(void)
{
	pid_t pid;

	ck_assert_int_eq(sl_spawn_sleepers(&pid, 1), 0);
	return pid;
}

static void set_fifo(pid_t pid, int prio, uint64_t flags)
{
	int ret = sl_set_policy(pid, SCHED_FIFO, prio, flags);

	ck_assert_msg(ret == 0, "making %d SCHED_FIFO: error %d", pid, ret);
}

/*
 * Clamps set with sched_setattr() are what the task brings to its CPU's
 * buckets (lab 4) when it runs, and a change moves it at once while it
 * runs.  That needs sched_uclamp_used switched on, which the first clamp
 * request does when nothing has yet: this is the lab's first test.  In a
 * boot shared with lab 4, whose cgroup writes switch it on, it is on
 * already (this very test counted in a bucket): the test cannot tell, and
 * says so, and the grader boots the lab again alone, where it is off.
 */
START_TEST(test_setattr_reaches_rq)
{
	int cpu = sl_nr_cpus() - 1;
	pid_t p;

	ck_assert_int_eq(sl_pin(0, 0), 0);
	ck_assert_msg(!sl_uclamp_counting(),
		      "inconclusive: uclamp was on before this lab's first clamp request (some CPU already counts a task in a bucket): whether sched_setattr() switches it on cannot be seen in this boot");
	p = sl_spawn_spinner(cpu, NULL);
	given(p, KEEP_ALL | CLAMPS, 300, 600, 300, 600, "util_min 300 util_max 600");
	sl_spin(p);
	ck_assert_msg(sl_uclamp_counting(),
		      "a task runs with clamps set by sched_setattr(), but no CPU counts any task in any bucket: "
		      "the clamp request did not switch uclamp on (sched_uclamp_used), or lab 4 counts nothing");
	sl_expect_rq("a task running with util_min 300 from sched_setattr()", cpu,
		     SL_UCLAMP_MIN, sl_uclamp_bucket_of(300), 1, 300);
	sl_expect_rq("a task running with util_max 600 from sched_setattr()", cpu,
		     SL_UCLAMP_MAX, sl_uclamp_bucket_of(600), 1, 600);
	given(p, KEEP_ALL | CLAMPS, 500, 800, 500, 800, "util_min 500 util_max 800 while it runs");
	sl_expect_rq("its util_min changed to 500 while it runs", cpu,
		     SL_UCLAMP_MIN, sl_uclamp_bucket_of(500), 1, 500);
	sl_expect_rq("its util_max changed to 800 while it runs", cpu,
		     SL_UCLAMP_MAX, sl_uclamp_bucket_of(800), 1, 800);
	sl_reap(&p, 1);
}
END_TEST

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
	ret = set_clamps(p, KEEP_ALL | CLAMP_MAX, 0, 700);
	ck_assert_msg(ret == 0, "UTIL_CLAMP_MAX alone: error %d", ret);
	expect_clamps(p, 300, 700, "after setting only util_max 700");
	sl_reap(&p, 1);
}
END_TEST

/*
 * The KEEP flags, case by case: a task in a given state gets a clamp
 * request with some policy and parameters in the attr, and must end up
 * with the policy and parameters the flags say.
 */
struct keep_case {
	const char *what;
	int policy, prio, nice;		/* the task before */
	struct sl_attr attr;		/* what it is sent (clamps 100/900) */
	int want_policy, want_prio, want_nice;
};

#define KEEP(pol, pri, ni, fl) ATTR(pol, pri, ni, (fl) | CLAMPS, 100, 900)

static void keep_case(const struct keep_case *c)
{
	struct sl_attr a = c->attr;
	pid_t p = sleeper();
	int ret;

	if (c->policy == SCHED_FIFO)
		set_fifo(p, c->prio, 0);
	ck_assert_int_eq(setpriority(PRIO_PROCESS, p, c->nice), 0);
	ret = sl_setattr(p, &a, 0);
	ck_assert_msg(ret == 0, "%s: sched_setattr returned %d, expected 0", c->what, ret);
	get(p, &a);
	ck_assert_msg((int)a.sched_policy == c->want_policy &&
		      (int)a.sched_priority == c->want_prio && a.sched_nice == c->want_nice,
		      "%s: the task became policy %u priority %u nice %d, expected policy %d priority %d nice %d",
		      c->what, a.sched_policy, a.sched_priority, a.sched_nice,
		      c->want_policy, c->want_prio, c->want_nice);
	expect_clamps(p, 100, 900, c->what);
	sl_reap(&p, 1);
}

static void keep_cases(const struct keep_case *c, int n)
{
	for (int i = 0; i < n; i++)
		keep_case(&c[i]);
}

/* KEEP_POLICY keeps SCHED_FIFO (the attr says SCHED_OTHER); KEEP_PARAMS its priority. */
START_TEST(test_keep_policy_rt)
{
	static const struct keep_case c[] = {
		{ "KEEP_ALL on a SCHED_FIFO prio 10 task (attr: SCHED_OTHER)", SCHED_FIFO, 10, 0,
		  KEEP(SCHED_OTHER, 0, 0, KEEP_ALL), SCHED_FIFO, 10, 0 },
	};

	keep_cases(c, 1);
}
END_TEST

/* A nice 5 task keeps its nice value and policy under KEEP_ALL (the attr says nice 0). */
START_TEST(test_keep_params_nice)
{
	static const struct keep_case c[] = {
		{ "KEEP_ALL on a nice 5 SCHED_OTHER task (attr: nice 0)", SCHED_OTHER, 0, 5,
		  KEEP(SCHED_OTHER, 0, 0, KEEP_ALL), SCHED_OTHER, 0, 5 },
	};

	keep_cases(c, 1);
}
END_TEST

/* KEEP_POLICY alone keeps the policy but applies the attr's parameters. */
START_TEST(test_keep_policy_alone)
{
	static const struct keep_case c[] = {
		{ "KEEP_POLICY on a SCHED_FIFO prio 10 task (attr: SCHED_OTHER, priority 20)",
		  SCHED_FIFO, 10, 0, KEEP(SCHED_OTHER, 20, 0, SL_FLAG_KEEP_POLICY), SCHED_FIFO, 20, 0 },
		{ "KEEP_POLICY on a nice 5 SCHED_OTHER task (attr: SCHED_FIFO priority 0, nice 3)",
		  SCHED_OTHER, 0, 5, KEEP(SCHED_FIFO, 0, 3, SL_FLAG_KEEP_POLICY), SCHED_OTHER, 0, 3 },
	};

	keep_cases(c, 2);
}
END_TEST

/*
 * KEEP_PARAMS alone: the task's own parameters are used (a SCHED_FIFO
 * request with priority 0 is accepted for a prio 10 task and keeps 10),
 * and __sched_setscheduler() does not apply the attr's policy and
 * parameters at all: a SCHED_BATCH in the attr leaves a SCHED_OTHER task.
 */
START_TEST(test_keep_params_alone)
{
	static const struct keep_case c[] = {
		{ "KEEP_PARAMS on a nice 5 SCHED_OTHER task (attr: nice 0)",
		  SCHED_OTHER, 0, 5, KEEP(SCHED_OTHER, 0, 0, SL_FLAG_KEEP_PARAMS), SCHED_OTHER, 0, 5 },
		{ "KEEP_PARAMS on a SCHED_FIFO prio 10 task (attr: SCHED_FIFO priority 0)",
		  SCHED_FIFO, 10, 0, KEEP(SCHED_FIFO, 0, 0, SL_FLAG_KEEP_PARAMS), SCHED_FIFO, 10, 0 },
		{ "KEEP_PARAMS on a nice 5 SCHED_OTHER task (attr: SCHED_BATCH, nice 0)",
		  SCHED_OTHER, 0, 5, KEEP(SCHED_BATCH, 0, 0, SL_FLAG_KEEP_PARAMS), SCHED_OTHER, 0, 5 },
	};

	keep_cases(c, 3);
}
END_TEST

START_TEST(test_einval_min_gt_max)
{
	pid_t p = sleeper();
	int ret = set_clamps(p, KEEP_ALL | CLAMPS, 800, 200);

	ck_assert_msg(ret == -EINVAL, "util_min 800 > util_max 200: got %d, expected -EINVAL", ret);
	/* against the current value too */
	given(p, KEEP_ALL | CLAMPS, 0, 300, 0, 300, "util_min 0 util_max 300");
	ret = set_clamps(p, KEEP_ALL | CLAMP_MIN, 400, 0);
	ck_assert_msg(ret == -EINVAL, "util_min 400 > current util_max 300: got %d, expected -EINVAL", ret);
	expect_clamps(p, 0, 300, "after the refused requests");
	sl_reap(&p, 1);
}
END_TEST

START_TEST(test_einval_above_scale)
{
	pid_t p = sleeper();
	int ret = set_clamps(p, KEEP_ALL | CLAMP_MAX, 0, 1025);

	ck_assert_msg(ret == -EINVAL, "util_max 1025: got %d, expected -EINVAL", ret);
	ret = set_clamps(p, KEEP_ALL | CLAMP_MIN, 1025, 0);
	ck_assert_msg(ret == -EINVAL, "util_min 1025: got %d, expected -EINVAL", ret);
	ret = set_clamps(p, KEEP_ALL | CLAMPS, 1024, 1024);
	ck_assert_msg(ret == 0, "util_min = util_max = 1024: got %d, expected 0", ret);
	expect_clamps(p, 1024, 1024, "after 1024/1024");
	sl_reap(&p, 1);
}
END_TEST

/* The clamp fields exist from SCHED_ATTR_SIZE_VER1 (56 bytes) on: each flag needs it. */
START_TEST(test_einval_ver0_size)
{
	static const struct {
		const char *name;
		uint64_t flags;
		uint32_t min, max;	/* what is set; a clamp not flagged stays at its default */
	} c[] = {
		{ "UTIL_CLAMP_MIN 100", CLAMP_MIN, 100, 1024 },
		{ "UTIL_CLAMP_MAX 900", CLAMP_MAX, 0, 900 },
		{ "UTIL_CLAMP_MIN|MAX 200/800", CLAMPS, 200, 800 },
	};

	for (int i = 0; i < 3; i++) {
		struct sl_attr a = {
			.size = SL_ATTR_SIZE_VER0,
			.sched_policy = SCHED_OTHER,
			.sched_flags = KEEP_ALL | c[i].flags,
			.sched_util_min = c[i].min,
			.sched_util_max = c[i].max,
		};
		pid_t p = sleeper();
		int ret = sl_setattr(p, &a, 0);

		ck_assert_msg(ret == -EINVAL, "%s with a %d-byte (VER0) attr: got %d, expected -EINVAL",
			      c[i].name, SL_ATTR_SIZE_VER0, ret);
		a.size = SL_ATTR_SIZE_VER1;
		ret = sl_setattr(p, &a, 0);
		ck_assert_msg(ret == 0, "%s with a %d-byte (VER1) attr: got %d, expected 0",
			      c[i].name, SL_ATTR_SIZE_VER1, ret);
		expect_clamps(p, c[i].min, c[i].max, c[i].name);
		sl_reap(&p, 1);
	}
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

/* sched_getattr returns what was set, -1/-1 resets to the defaults. */
START_TEST(test_getattr_round_trip)
{
	pid_t p = sleeper();
	struct sl_attr a;

	expect_clamps(p, 0, 1024, "a new SCHED_OTHER task");
	given(p, KEEP_ALL | CLAMPS, 123, 456, 123, 456, "util_min 123 util_max 456");
	get(p, &a);
	ck_assert_msg(a.size == SL_ATTR_SIZE_VER1, "sched_getattr size %u, expected %d",
		      a.size, SL_ATTR_SIZE_VER1);
	expect_clamps(p, 123, 456, "after 123/456");
	ck_assert_msg(sl_proc_sched(p, "uclamp.min") == 123 && sl_proc_sched(p, "uclamp.max") == 456,
		      "/proc/%d/sched: uclamp.min %ld .max %ld, expected 123 456", p,
		      sl_proc_sched(p, "uclamp.min"), sl_proc_sched(p, "uclamp.max"));
	ok(set_clamps(p, KEEP_ALL | CLAMPS, RESET, RESET), "util_min -1 util_max -1");
	expect_clamps(p, 0, 1024, "after -1/-1 (back to the defaults)");
	sl_reap(&p, 1);
}
END_TEST

/*
 * sched_getattr reports the task's request (p->uclamp_req), not the value
 * it runs with: in a group whose util_max is 50%, a task asking for
 * util_max 800 runs with 512 and still reads 800.
 */
START_TEST(test_getattr_reports_request)
{
	int cpu = sl_nr_cpus() - 1, ret;
	struct sl_attr a;
	pid_t p;

	ck_assert_int_eq(sl_pin(0, 0), 0);
	sl_cg_enable("", "cpu");
	sl_cg_mkdir("l5_req");
	sl_cg_write("l5_req", "cpu.uclamp.max", "50");
	p = sl_spawn_spinner(cpu, "l5_req");
	ret = set_clamps(p, KEEP_ALL | CLAMPS, 100, 800);
	ck_assert_msg(ret == 0 && sl_proc_sched(p, "uclamp.max") == 800,
		      "precondition: util_min 100 util_max 800 was not applied (sched_setattr returned %d; "
		      "/proc/%d/sched shows uclamp.max %ld), and the checks after it need it",
		      ret, p, sl_proc_sched(p, "uclamp.max"));
	sl_spin(p);
	sl_rest(p);
	get(p, &a);
	ck_assert_msg(a.sched_util_min == 100 && a.sched_util_max == 800,
		      "a task asking for 100/800 in a group capped at 50%%: sched_getattr reports %u/%u, "
		      "expected its request, 100/800", a.sched_util_min, a.sched_util_max);
	ck_assert_msg(sl_proc_sched(p, "effective uclamp.max") == 512,
		      "the same task: /proc/%d/sched shows effective uclamp.max %ld, expected 512 (its group's 50%%)",
		      p, sl_proc_sched(p, "effective uclamp.max"));
	sl_reap(&p, 1);
}
END_TEST

/* -1 resets one clamp alone; the other one stays as it was. */
START_TEST(test_reset_one_clamp)
{
	pid_t p = sleeper();

	given(p, KEEP_ALL | CLAMPS, 200, 700, 200, 700, "util_min 200 util_max 700");
	ok(set_clamps(p, KEEP_ALL | CLAMP_MAX, 0, RESET), "util_max -1 alone");
	expect_clamps(p, 200, 1024, "after util_max -1 alone (util_min 200 stays)");
	ok(set_clamps(p, KEEP_ALL | CLAMP_MIN, RESET, 0), "util_min -1 alone");
	expect_clamps(p, 0, 1024, "after util_min -1 alone");
	sl_reap(&p, 1);
}
END_TEST

/*
 * -1 on an RT task: util_min goes back to the RT default (1024), not to
 * 0, and is no longer user-defined: back to SCHED_OTHER it drops to 0.
 */
START_TEST(test_reset_rt)
{
	pid_t p = sleeper();

	set_fifo(p, 5, 0);
	given(p, KEEP_ALL | CLAMP_MIN, 300, 0, 300, 1024, "util_min 300 on a SCHED_FIFO task");
	ok(set_clamps(p, KEEP_ALL | CLAMP_MIN, RESET, 0), "util_min -1 alone");
	expect_clamps(p, 1024, 1024, "SCHED_FIFO task after util_min -1 (the RT default)");
	ok(sl_set_other(p), "back to SCHED_OTHER");
	expect_clamps(p, 0, 1024, "then SCHED_OTHER (the reset value was not user-defined)");
	sl_reap(&p, 1);
}
END_TEST

/* RT tasks default to util_min 1024; back to SCHED_OTHER, 0 again. */
START_TEST(test_rt_default_min)
{
	pid_t p = sleeper();

	set_fifo(p, 5, 0);
	expect_clamps(p, 1024, 1024, "a task made SCHED_FIFO");
	ok(sl_set_other(p), "back to SCHED_OTHER");
	expect_clamps(p, 0, 1024, "the same task back to SCHED_OTHER");
	set_fifo(p, 5, 0);
	expect_clamps(p, 1024, 1024, "made SCHED_FIFO again");
	sl_reap(&p, 1);
}
END_TEST

/*
 * rt_task() is what tells the RT default: a SCHED_DEADLINE task (whose
 * priority is an RT one) gets it too, though its policy is not RT.  The
 * task spins (10 ms of every 100, throttled between, always queued): 6.1
 * never gives back the bandwidth of a task that leaves SCHED_DEADLINE
 * while it sleeps with no inactive timer pending (switched_from_dl()
 * clears dl_non_contending and nothing subtracts its total_bw), which
 * would leave the machine changed for the labs after this one.
 */
START_TEST(test_dl_default_min)
{
	struct sl_dl dl = { 10 * NSEC_PER_MSEC, 100 * NSEC_PER_MSEC, 100 * NSEC_PER_MSEC };
	struct sl_child c;

	sl_dl_spinner(&c, sl_nr_cpus() - 1, &dl);
	expect_clamps(c.pid, 1024, 1024, "a task made SCHED_DEADLINE (rt_task() is true for it)");
	ok(sl_set_other(c.pid), "back to SCHED_OTHER");
	expect_clamps(c.pid, 0, 1024, "the same task back to SCHED_OTHER");
	sl_child_kill(&c);
}
END_TEST

/*
 * The RT default is sched_util_clamp_min_rt_default: a task made RT gets
 * its value, an RT task whose util_min is not user-defined follows its
 * changes, a user-defined one does not.
 */
START_TEST(test_rt_default_sysctl)
{
	pid_t p = sleeper(), q = sleeper();

	sl_uclamp_sysctl(SL_SYSCTL_UCLAMP_MIN_RT, 512);
	set_fifo(p, 5, 0);
	expect_clamps(p, 512, 1024, "a task made SCHED_FIFO with sched_util_clamp_min_rt_default 512");
	given(q, KEEP_ALL | CLAMP_MIN, 300, 0, 300, 1024, "util_min 300");
	set_fifo(q, 5, 0);
	expect_clamps(q, 300, 1024, "a task with a user-defined util_min 300 made SCHED_FIFO");
	sl_uclamp_sysctl(SL_SYSCTL_UCLAMP_MIN_RT, 200);
	expect_clamps(p, 200, 1024, "the first one after sched_util_clamp_min_rt_default 200");
	expect_clamps(q, 300, 1024, "the user-defined one after sched_util_clamp_min_rt_default 200");
	ok(sl_set_other(p), "back to SCHED_OTHER");
	expect_clamps(p, 0, 1024, "the first one back to SCHED_OTHER");
	sl_reap(&p, 1);
	sl_reap(&q, 1);
}
END_TEST

/* A user-defined util_min survives class changes both ways. */
START_TEST(test_user_defined_survives)
{
	pid_t p = sleeper();

	given(p, KEEP_ALL | CLAMP_MIN, 300, 0, 300, 1024, "util_min 300");
	set_fifo(p, 5, 0);
	expect_clamps(p, 300, 1024, "user-defined util_min 300, then SCHED_FIFO");
	ok(sl_set_other(p), "back to SCHED_OTHER");
	expect_clamps(p, 300, 1024, "then SCHED_OTHER");
	/* set while RT */
	set_fifo(p, 5, 0);
	given(p, KEEP_ALL | CLAMP_MIN, 200, 0, 200, 1024, "util_min 200 while SCHED_FIFO");
	ok(sl_set_other(p), "back to SCHED_OTHER");
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
		/* the two children, and the clamp request's result */
		pid_t kids[3];

		set_fifo(0, 5, 0);
		kids[0] = fork();
		if (kids[0] == 0)
			for (;;)
				pause();
		set_fifo(0, 5, SCHED_FLAG_RESET_ON_FORK);
		/* both clamps: an RT task's util_min is 1024 until set */
		kids[2] = set_clamps(0, KEEP_ALL | CLAMPS, 0, 900);
		kids[1] = fork();
		if (kids[1] == 0)
			for (;;)
				pause();
		ck_assert_int_eq(write(fds[1], kids, sizeof(kids)), sizeof(kids));
		for (;;)
			pause();
	}
	{
		pid_t kids[3];

		ck_assert_int_eq(read(fds[0], kids, sizeof(kids)), sizeof(kids));
		ck_assert_msg(kids[2] == 0,
			      "a SCHED_FIFO task asking util_min 0 util_max 900 (KEEP_ALL): error %d", kids[2]);
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

/*
 * An RT task's user-defined util_min is its RT child's too: the child
 * keeps it rather than taking the RT default.
 */
START_TEST(test_rt_fork_user_defined)
{
	int fds[2];
	pid_t parent, kid[2];	/* the child; the clamp request's result */

	ck_assert_int_eq(pipe(fds), 0);
	parent = fork();
	ck_assert_int_ge(parent, 0);
	if (parent == 0) {
		set_fifo(0, 5, 0);
		kid[1] = set_clamps(0, KEEP_ALL | CLAMP_MIN, 300, 0);
		kid[0] = fork();
		if (kid[0] == 0)
			for (;;)
				pause();
		ck_assert_int_eq(write(fds[1], kid, sizeof(kid)), sizeof(kid));
		for (;;)
			pause();
	}
	ck_assert_int_eq(read(fds[0], kid, sizeof(kid)), sizeof(kid));
	ck_assert_msg(kid[1] == 0,
		      "precondition: a SCHED_FIFO task asking util_min 300 (KEEP_ALL): error %d", kid[1]);
	expect_clamps(parent, 300, 1024, "precondition: a SCHED_FIFO task with util_min 300 (user-defined)");
	expect_clamps(kid[0], 300, 1024,
		      "the RT child of a SCHED_FIFO task whose util_min 300 is user-defined");
	sl_reap(&kid[0], 1);
	sl_reap(&parent, 1);
}
END_TEST

/* /proc/PID/sched shows the effective values the task runs with. */
START_TEST(test_proc_sched_effective)
{
	pid_t p = sleeper();

	ok(set_clamps(p, CLAMPS, 111, 777), "util_min 111 util_max 777");
	sl_expect_effective(p, 111, 777, "a task after util_min 111 util_max 777");
	sl_reap(&p, 1);
}
END_TEST

/*
 * uclamp_post_fork(): an RT child takes the RT default in force when it
 * joins the task list.  A change of sched_util_clamp_min_rt_default walks
 * the task list; a child copied from its parent before the change but
 * linked after the walk has the old value until uclamp_post_fork() puts it
 * right.  Forkers (SCHED_FIFO, one on each CPU but this test's) fork
 * sleeping children without pause while the sysctl changes, ROUNDS times;
 * after each change every child must have the new value.  With
 * uclamp_post_fork() no child can miss it, so the test cannot fail
 * wrongly.  Without it, a forker is inside fork() nearly all the time, so
 * each change catches a child of each forker half-way: measured, every
 * forker left a stale child in the first round, in 3 runs of 3.
 */
#define FORKERS_MAX	8
#define KIDS_MAX	200
#define ROUNDS		4
struct fork_race {
	volatile int round, go, stop;
	volatile int ready[FORKERS_MAX], forking[FORKERS_MAX], done[FORKERS_MAX];
	volatile int nkids[FORKERS_MAX];
	pid_t kids[FORKERS_MAX][KIDS_MAX];
};

/*
 * Forker @i, each round: once told to go, say so and fork sleeping
 * children until told to stop; then, when the next round starts, reap them.
 */
static void forker(struct fork_race *r, int i)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (int round = 1; ; round++) {
		while (r->round < round && !r->stop)
			usleep(200);
		if (r->stop)
			_exit(0);
		r->ready[i] = round;
		while (r->go != round)
			usleep(50);
		r->forking[i] = round;
		while (r->go == round && r->nkids[i] < KIDS_MAX) {
			pid_t kid = fork();

			if (kid == 0) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				for (;;)
					pause();
			}
			if (kid < 0)
				break;
			r->kids[i][r->nkids[i]++] = kid;
		}
		r->done[i] = round;
		while (r->round == round && !r->stop)
			usleep(200);
		for (int k = 0; k < r->nkids[i]; k++) {
			kill(r->kids[i][k], SIGKILL);
			waitpid(r->kids[i][k], NULL, 0);
		}
		r->nkids[i] = 0;
	}
}

static void await_forkers(volatile int *what, int nf, int round)
{
	long end = sl_now_ms() + 10 * SL_SETTLE_MS;

	for (int i = 0; i < nf; i++)
		while (what[i] != round) {
			ck_assert_msg(sl_now_ms() < end, "forker %d stuck in round %d", i, round);
			usleep(200);
		}
}

START_TEST(test_rt_fork_sysctl_race)
{
	int nf = sl_nr_cpus() - 1 < FORKERS_MAX ? sl_nr_cpus() - 1 : FORKERS_MAX;
	struct fork_race *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t forkers[FORKERS_MAX];

	ck_assert_msg(r != MAP_FAILED, "mmap: %s", strerror(errno));
	ck_assert_int_eq(sl_pin(0, 0), 0);
	sl_uclamp_sysctl(SL_SYSCTL_UCLAMP_MIN_RT, 400);
	for (int i = 0; i < nf; i++) {
		struct sl_attr a;

		forkers[i] = fork();
		ck_assert_int_ge(forkers[i], 0);
		if (forkers[i] == 0)
			forker(r, i);
		ck_assert_int_eq(sl_pin(forkers[i], i + 1), 0);
		set_fifo(forkers[i], 10, 0);
		get(forkers[i], &a);
		ck_assert_msg(a.sched_util_min == 400,
			      "precondition: a task made SCHED_FIFO has util_min %u, expected the RT default 400",
			      a.sched_util_min);
	}
	for (int round = 1; round <= ROUNDS; round++) {
		unsigned int v = round % 2 ? 300 : 500;
		int stale = 0, n = 0;

		r->round = round;
		await_forkers(r->ready, nf, round);
		r->go = round;
		await_forkers(r->forking, nf, round);
		usleep(2000);
		sl_uclamp_sysctl(SL_SYSCTL_UCLAMP_MIN_RT, v);
		usleep(2000);
		r->go = 0;
		await_forkers(r->done, nf, round);
		for (int i = 0; i < nf; i++)
			for (int k = 0; k < r->nkids[i]; k++) {
				struct sl_attr a;

				get(r->kids[i][k], &a);
				n++;
				stale += a.sched_util_min != v;
			}
		ck_assert_msg(!stale,
			      "round %d: %d of the %d RT children forked while sched_util_clamp_min_rt_default "
			      "became %u have another util_min (an RT child takes the RT default in force "
			      "when it joins the task list: uclamp_post_fork())", round, stale, n, v);
	}
	r->stop = 1;
	sl_reap(forkers, nf);
}
END_TEST

/*
 * The rules against a model, on a seeded random scenario (sl_seed()):
 * sched_setattr() calls on three sleeping tasks with random policies
 * (OTHER, BATCH, FIFO, RR), priorities and nice values (now and then
 * invalid), random flags (RESET_ON_FORK, KEEP_POLICY, KEEP_PARAMS, the
 * clamp flags, now and then an unknown one, or a VER0 size), random clamp
 * values (-1, above 1024, a min above the max), and now and then a new RT
 * default (sched_util_clamp_min_rt_default).  After every call the return
 * value and every task's sched_getattr() (policy, priority, nice,
 * RESET_ON_FORK, util_min, util_max) are compared with the model, which is
 * 6.1's sched_setattr() path: sched_copy_attr(), sys_sched_setattr(),
 * __sched_setscheduler(), uclamp_validate(), __setscheduler_uclamp(), and
 * uclamp_sync_util_min_rt_default() for the sysctl.
 */
#define RAND_TASKS	3
#define RAND_STEPS	60

struct mtask {
	pid_t pid;
	int policy, prio, nice, reset_on_fork;
	uint32_t util[2];
	int user_defined[2];
};

struct model5 {
	struct mtask t[RAND_TASKS];
	uint32_t rt_default;
};

static int is_rt(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

/* What 6.1 makes of sched_setattr(@t, @a): the return value; @t updated. */
static int model_setattr(struct mtask *t, const struct sl_attr *a, uint32_t rt_default)
{
	struct sl_attr k = *a;
	int policy, reset_on_fork, rt;
	uint32_t req[2];

	/* sched_copy_attr(): the clamp flags need a VER1 attr */
	if ((k.sched_flags & CLAMPS) && k.size < SL_ATTR_SIZE_VER1)
		return -EINVAL;
	if (k.sched_nice < -20)
		k.sched_nice = -20;
	if (k.sched_nice > 19)
		k.sched_nice = 19;
	/* sys_sched_setattr() */
	policy = k.sched_flags & SL_FLAG_KEEP_POLICY ? -1 : (int)k.sched_policy;
	if (k.sched_flags & SL_FLAG_KEEP_PARAMS) {
		if (is_rt(t->policy))
			k.sched_priority = t->prio;
		else
			k.sched_nice = t->nice;
	}
	/* __sched_setscheduler() */
	if (policy < 0) {
		reset_on_fork = t->reset_on_fork;
		policy = t->policy;
	} else {
		reset_on_fork = !!(k.sched_flags & SCHED_FLAG_RESET_ON_FORK);
	}
	if (k.sched_flags & ~0x7fULL)
		return -EINVAL;
	if (k.sched_priority > 99 || is_rt(policy) != (k.sched_priority != 0))
		return -EINVAL;
	/* uclamp_validate(), with a clamp flag: against the task's requests */
	req[0] = t->util[0];
	req[1] = t->util[1];
	if (k.sched_flags & CLAMP_MIN) {
		if (k.sched_util_min + 1 > 1025)
			return -EINVAL;
		req[0] = k.sched_util_min;
	}
	if (k.sched_flags & CLAMP_MAX) {
		if (k.sched_util_max + 1 > 1025)
			return -EINVAL;
		req[1] = k.sched_util_max;
	}
	if ((k.sched_flags & CLAMPS) && req[0] != RESET && req[1] != RESET && req[0] > req[1])
		return -EINVAL;
	/* nothing changes: only RESET_ON_FORK is set */
	if (policy == t->policy && !(k.sched_flags & CLAMPS) &&
	    !(!is_rt(policy) && k.sched_nice != t->nice) &&
	    !(is_rt(policy) && (int)k.sched_priority != t->prio)) {
		t->reset_on_fork = reset_on_fork;
		return 0;
	}
	t->reset_on_fork = reset_on_fork;
	if (!(k.sched_flags & SL_FLAG_KEEP_PARAMS)) {
		t->policy = policy;
		t->prio = k.sched_priority;
		if (!is_rt(policy))
			t->nice = k.sched_nice;
	}
	/* __setscheduler_uclamp(), with the new priority */
	rt = is_rt(t->policy);
	for (int id = 0; id < 2; id++) {
		int flag = id ? CLAMP_MAX : CLAMP_MIN;
		uint32_t v = id ? k.sched_util_max : k.sched_util_min;

		if ((!(k.sched_flags & CLAMPS) && !t->user_defined[id]) ||
		    ((k.sched_flags & flag) && v == RESET)) {
			t->util[id] = id ? 1024 : rt ? rt_default : 0;
			t->user_defined[id] = 0;
		} else if ((k.sched_flags & flag) && v != RESET) {
			t->util[id] = v;
			t->user_defined[id] = 1;
		}
	}
	return 0;
}

static void check5(const struct model5 *m)
{
	for (int i = 0; i < RAND_TASKS; i++) {
		const struct mtask *t = &m->t[i];
		struct sl_attr a;

		get(t->pid, &a);
		ck_assert_msg((int)a.sched_policy == t->policy &&
			      (int)a.sched_priority == (is_rt(t->policy) ? t->prio : 0) &&
			      a.sched_nice == (is_rt(t->policy) ? 0 : t->nice) &&
			      !!(a.sched_flags & SCHED_FLAG_RESET_ON_FORK) == t->reset_on_fork &&
			      a.sched_util_min == t->util[0] && a.sched_util_max == t->util[1],
			      "task %d: sched_getattr() shows policy %u priority %u nice %d reset-on-fork %d util %u/%u; expected policy %d priority %d nice %d reset-on-fork %d util %u/%u (util_min %s, util_max %s); %s",
			      t->pid, a.sched_policy, a.sched_priority, a.sched_nice,
			      !!(a.sched_flags & SCHED_FLAG_RESET_ON_FORK), a.sched_util_min,
			      a.sched_util_max, t->policy, is_rt(t->policy) ? t->prio : 0,
			      is_rt(t->policy) ? 0 : t->nice, t->reset_on_fork, t->util[0], t->util[1],
			      t->user_defined[0] ? "user-defined" : "a default",
			      t->user_defined[1] ? "user-defined" : "a default",
			      sl_scenario("test_random_scenarios"));
	}
}

/* A random attr: mostly valid, now and then not. */
static void random_attr(struct sl_attr *a)
{
	static const int policies[] = { SCHED_OTHER, SCHED_BATCH, SCHED_FIFO, SCHED_RR };
	static const uint32_t utils[] = { 0, 100, 300, 512, 700, 1024, RESET, 1025 };
	static const uint64_t flags[] = { SCHED_FLAG_RESET_ON_FORK, SL_FLAG_KEEP_POLICY,
					  SL_FLAG_KEEP_PARAMS, CLAMP_MIN, CLAMP_MAX };

	memset(a, 0, sizeof(*a));
	a->size = sl_rand(12) ? SL_ATTR_SIZE_VER1 : SL_ATTR_SIZE_VER0;
	a->sched_policy = policies[sl_rand(4)];
	if (is_rt(a->sched_policy) ? sl_rand(12) : !sl_rand(12))
		a->sched_priority = 1 + sl_rand(99);
	a->sched_nice = (int)sl_rand(40) - 20;
	for (int i = 0; i < 5; i++)
		if (sl_rand(3) == 0 || (i >= 3 && sl_rand(2)))
			a->sched_flags |= flags[i];
	if (!sl_rand(20))
		a->sched_flags |= UNKNOWN_FLAG;
	a->sched_util_min = utils[sl_rand(8)];
	a->sched_util_max = utils[sl_rand(8)];
}

START_TEST(test_random_scenarios)
{
	static const uint32_t defaults[] = { 0, 200, 512, 1024 };
	struct model5 m = { .rt_default = 1024 };
	pid_t pids[RAND_TASKS];

	ck_assert_int_eq(sl_spawn_sleepers(pids, RAND_TASKS), 0);
	for (int i = 0; i < RAND_TASKS; i++)
		m.t[i] = (struct mtask){ .pid = pids[i], .policy = SCHED_OTHER, .util = { 0, 1024 } };
	check5(&m);
	while (sl_nr_steps() < RAND_STEPS) {
		if (!sl_rand(10)) {
			uint32_t v = defaults[sl_rand(4)];

			sl_uclamp_sysctl(SL_SYSCTL_UCLAMP_MIN_RT, v);
			/* a new value goes to every RT task whose util_min is a default */
			for (int i = 0; i < RAND_TASKS && v != m.rt_default; i++)
				if (is_rt(m.t[i].policy) && !m.t[i].user_defined[0])
					m.t[i].util[0] = v;
			m.rt_default = v;
			sl_step("sched_util_clamp_min_rt_default %u", v);
		} else {
			struct mtask *t = &m.t[sl_rand(RAND_TASKS)];
			struct sl_attr a;
			int ret, want;

			random_attr(&a);
			sl_step("task %d: size %u policy %u priority %u nice %d flags %#llx util %d/%d",
			      t->pid, a.size, a.sched_policy, a.sched_priority, a.sched_nice,
			      (unsigned long long)a.sched_flags, (int)a.sched_util_min,
			      (int)a.sched_util_max);
			want = model_setattr(t, &a, m.rt_default);
			ret = sl_setattr(t->pid, &a, 0);
			ck_assert_msg(ret == want, "sched_setattr() returned %d, expected %d; %s",
				      ret, want, sl_scenario("test_random_scenarios"));
		}
		check5(&m);
	}
	sl_reap(pids, RAND_TASKS);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab05", NULL, NULL);

	sl_suite_cleanup(sl_uclamp_sysctls_default);
	sl_add_test(s, test_setattr_reaches_rq);
	sl_add_test(s, test_clamps_keep_all);
	sl_add_test(s, test_clamps_with_policy);
	sl_add_test(s, test_keep_policy_rt);
	sl_add_test(s, test_keep_params_nice);
	sl_add_test(s, test_keep_policy_alone);
	sl_add_test(s, test_keep_params_alone);
	sl_add_test(s, test_einval_min_gt_max);
	sl_add_test(s, test_einval_above_scale);
	sl_add_test(s, test_einval_ver0_size);
	sl_add_test(s, test_einval_unknown_flag);
	sl_add_test(s, test_getattr_round_trip);
	sl_add_test(s, test_getattr_reports_request);
	sl_add_test(s, test_reset_one_clamp);
	sl_add_test(s, test_reset_rt);
	sl_add_test(s, test_rt_default_min);
	sl_add_test(s, test_dl_default_min);
	sl_add_test(s, test_rt_default_sysctl);
	sl_add_test(s, test_user_defined_survives);
	sl_add_test(s, test_rt_fork);
	sl_add_test(s, test_rt_fork_user_defined);
	sl_add_test(s, test_rt_fork_sysctl_race);
	sl_add_test(s, test_proc_sched_effective);
	sl_add_test(s, test_random_scenarios);
	return s;
}
