// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 3: a SCHED_DEADLINE task that never blocks, started on a little CPU
 * it does not fit, moves to a CPU that fits the first time it is
 * throttled, and stays there.
 *
 * The task (busy.h: runtime 10 ms, deadline 15 ms, period 100 ms, so it
 * needs capacity 683) spins from the moment it becomes SCHED_DEADLINE on
 * the slowest CPU with every CPU allowed.  It never sleeps, so it never
 * goes through the wakeup placement of lab 2: only the throttle can move
 * it.  On a 512 CPU it is throttled after about 20 ms of wall time
 * (runtime is consumed at the capacity-scaled rate) and its replenishment
 * timer fires at 100 ms; moved at that first throttle, it resumes on the
 * new CPU at about 100 ms.  Moved only at a later throttle, it would
 * resume there at 200 ms or later.
 *
 * Timing threshold (TCG): the move must be seen before 150 ms, half a
 * period after the first replenishment.  Emulation slows the code, not the
 * clock the scheduler accounts with, so a slow host makes the throttle
 * come earlier, never later; only the lateness of the timer interrupt
 * counts, and 50 ms is far more than it ever is (a few ms under load).
 */
#include "busy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#define OBSERVE_MS	600
#define MOVED_BY_MS	150
#define MAX_SLEEPERS	64

/* The parameters must make the task misfit and throttle on @cpu. */
static void check_preconditions(int cpu)
{
	unsigned long cap = sl_cpu_capacity(cpu);
	uint64_t wall = BUSY_RUNTIME * SL_CAPACITY_SCALE / cap;

	ck_assert_msg(cap < busy_demand(),
		      "CPU %d (capacity %lu) fits the task (demand %lu): this test needs an asymmetric topology",
		      cpu, cap, busy_demand());
	ck_assert_msg(sl_max_capacity() >= busy_demand(),
		      "no CPU fits a task of demand %lu", busy_demand());
	ck_assert_msg(wall + 10 * NSEC_PER_MSEC < BUSY_PERIOD,
		      "on CPU %d the runtime lasts %llu ms: too close to the period for a throttle with a timer",
		      cpu, (unsigned long long)(wall / NSEC_PER_MSEC));
}

START_TEST(test_busy_task_moves_at_first_throttle)
{
	int little = busy_slowest_cpu();
	struct busy_result res;
	int to;

	check_preconditions(little);
	busy_observe(little, OBSERVE_MS, &res);
	ck_assert_msg(res.n > 0,
		      "the busy task (demand %lu) stayed on CPU %d (capacity %lu) for %d ms, %d throttles; expected it to move to a CPU of capacity >= %lu at its first throttle",
		      busy_demand(), little, sl_cpu_capacity(little),
		      OBSERVE_MS, res.throttles, busy_demand());
	to = res.change[0].to;
	ck_assert_msg(sl_cpu_capacity(to) >= busy_demand(),
		      "the busy task (demand %lu) moved from CPU %d to CPU %d of capacity %lu, which does not fit it either",
		      busy_demand(), little, to, sl_cpu_capacity(to));
	ck_assert_msg(res.change[0].ms < MOVED_BY_MS,
		      "the busy task moved to CPU %d only after %.1f ms; its first throttle is at about %llu ms and its replenishment at %llu ms, so it should run there before %d ms",
		      to, res.change[0].ms,
		      (unsigned long long)(BUSY_RUNTIME * SL_CAPACITY_SCALE /
					   sl_cpu_capacity(little) / NSEC_PER_MSEC),
		      (unsigned long long)(BUSY_PERIOD / NSEC_PER_MSEC), MOVED_BY_MS);
	ck_assert_msg(res.n == 1,
		      "after moving to CPU %d at %.1f ms the busy task moved again, from CPU %d to CPU %d at %.1f ms (%d moves in all); expected it to stay on a CPU that fits",
		      to, res.change[0].ms, res.change[1].from,
		      res.change[1].to, res.change[1].ms, res.n);
	ck_assert_msg(res.throttles >= OBSERVE_MS / 100 - 2,
		      "the busy task was throttled only %d times in %d ms; expected about one a period",
		      res.throttles, OBSERVE_MS);
}
END_TEST

/* Make sleepers 50/100 ms SCHED_DEADLINE until refused (lab 1's count). */
static int admitted(void)
{
	pid_t pids[MAX_SLEEPERS] = { 0 };
	int n;

	ck_assert_int_eq(sl_spawn_sleepers(pids, MAX_SLEEPERS), 0);
	for (n = 0; n < MAX_SLEEPERS; n++) {
		int ret = sl_set_dl(pids[n], 50 * NSEC_PER_MSEC,
				    100 * NSEC_PER_MSEC, 100 * NSEC_PER_MSEC);

		if (ret == -EBUSY)
			break;
		ck_assert_msg(ret == 0, "sched_setattr: unexpected error %d", ret);
	}
	sl_reap(pids, MAX_SLEEPERS);
	return n;
}

/* The kernel log holds a WARNING or a BUG: copy its first line to @line. */
static int kernel_splat(char *line, size_t size)
{
	static char buf[1 << 17];
	int len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	char *p;

	if (len <= 0)
		return 0;
	buf[len] = 0;
	p = strstr(buf, "WARNING:");
	if (!p)
		p = strstr(buf, "BUG:");
	if (!p)
		return 0;
	snprintf(line, size, "%.*s", (int)strcspn(p, "\n"), p);
	return 1;
}

/*
 * Moved by the throttle, the task takes its bandwidth along: three times,
 * a busy task moves to a big CPU, then leaves SCHED_DEADLINE, comes back
 * and leaves again there (each step adds or removes its running_bw and
 * this_bw on the big CPU's runqueue, which underflow, and warn, if they
 * stayed behind).  Afterwards admission control must count as before and
 * the kernel log must be clean.
 */
START_TEST(test_bandwidth_moves_with_the_task)
{
	int little = busy_slowest_cpu(), before, after;
	char splat[160];

	check_preconditions(little);
	before = admitted();
	for (int round = 1; round <= 3; round++) {
		pid_t pid = busy_spawn(little);
		int cpu = little, ret;

		/* 2 s: twenty periods, against a move due at the first. */
		for (int i = 0; i < 200; i++) {
			cpu = busy_task_cpu(pid);
			if (cpu >= 0 && sl_cpu_capacity(cpu) >= busy_demand())
				break;
			usleep(10000);
		}
		if (cpu < 0 || sl_cpu_capacity(cpu) < busy_demand()) {
			sl_reap(&pid, 1);
			ck_abort_msg("round %d: the busy task (demand %lu) was still on CPU %d (capacity %lu) after 2 s; expected it on a CPU that fits after its first throttle",
				     round, busy_demand(), cpu,
				     cpu >= 0 ? sl_cpu_capacity(cpu) : 0);
		}
		ret = sl_set_other(pid);
		if (!ret)
			ret = sl_set_dl(pid, BUSY_RUNTIME, BUSY_DEADLINE, BUSY_PERIOD);
		if (!ret)
			ret = sl_set_other(pid);
		sl_reap(&pid, 1);
		ck_assert_msg(ret == 0,
			      "round %d: switching the moved task to SCHED_OTHER, back to SCHED_DEADLINE and to SCHED_OTHER again failed: %s",
			      round, strerror(-ret));
	}
	after = admitted();
	ck_assert_msg(after == before,
		      "admission control admitted %d tasks of 50/100 ms before the moves and %d after; the bandwidth accounting leaked",
		      before, after);
	ck_assert_msg(!kernel_splat(splat, sizeof(splat)),
		      "the kernel log has a splat after the moves: \"%s\"", splat);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab03", NULL, NULL);

	sl_add_test(s, test_busy_task_moves_at_first_throttle);
	sl_add_test(s, test_bandwidth_moves_with_the_task);
	return s;
}
