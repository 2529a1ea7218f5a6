// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 3: a SCHED_DEADLINE task that never blocks, started on a CPU it
 * does not fit, moves the first time it is throttled: to a CPU that fits
 * or, when none that fits is free, to a faster one; a task that fits
 * stays; its bandwidth goes with it.
 *
 * The misfit task (busy.h: runtime 10 ms, deadline 15 ms, period 100 ms,
 * so it needs capacity 682) spins from the moment it becomes
 * SCHED_DEADLINE on the slowest CPU with every CPU allowed.  It never
 * sleeps, so it never goes through the wakeup placement of lab 2: only
 * the throttle can move it.  On a 256 CPU it is throttled after about
 * 40 ms of wall time (runtime is consumed at the capacity-scaled rate)
 * and replenished by its timer at 100 ms; moved at that first throttle,
 * it resumes on the new CPU.
 *
 * No timing threshold: the task itself counts its throttles (a pause in
 * its spinning across which its scheduling deadline moved on, busy.h),
 * and the move must show when it resumes after the first one.  An
 * emulated CPU that the host stalls (TCG under load) makes a throttle
 * late, or long, never a different one.  A move can only happen at a
 * throttle, so a task has settled once it has run again after one more
 * throttle where it is: each test stops there.
 */
#include "busy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#define MAX_MS		3000	/* a test child spins at most 30 periods */
#define SETTLE		1	/* throttles after the last move */
#define WAIT_MS		SL_DL_IDLE_MS	/* for a move due within a period */

/* The misfit task, started on @cpu. */
static struct busy_spec misfit_on(int cpu)
{
	return (struct busy_spec){ .cpu = cpu, .dl = busy_dl, .max_ms = MAX_MS,
				   .settle = SETTLE };
}

/* The parameters must make the task misfit and throttle on @cpu. */
static void check_preconditions(int cpu)
{
	unsigned long cap = sl_cpu_capacity(cpu), demand = sl_dl_demand(&busy_dl);
	uint64_t wall = BUSY_RUNTIME * SL_CAPACITY_SCALE / cap;

	ck_assert_msg(cap < demand,
		      "CPU %d (capacity %lu) fits the task (demand %lu): this test needs an asymmetric topology",
		      cpu, cap, demand);
	ck_assert_msg(sl_max_capacity() >= demand, "no CPU fits a task of demand %lu", demand);
	ck_assert_msg(wall + 10 * NSEC_PER_MSEC < BUSY_PERIOD,
		      "on CPU %d the runtime lasts %llu ms: too close to the period for a throttle with a timer",
		      cpu, (unsigned long long)(wall / NSEC_PER_MSEC));
}

/*
 * The misfit task, started on the slowest CPU, must move once, at its
 * first throttle, to a CPU of capacity @want (or at least @want, if
 * @at_least), and stay there; @why says why that CPU.
 */
static void expect_one_move(const struct busy_result *res, unsigned long want,
			    int at_least, const char *why)
{
	unsigned long demand = sl_dl_demand(&busy_dl), cap;
	int from = res->start, to;
	char seen[600];

	busy_history(res, seen, sizeof(seen));
	ck_assert_msg(res->n > 0,
		      "the busy task (demand %lu) stayed on CPU %d (capacity %lu) for %.0f ms, %d throttles; expected it to move at its first throttle to a CPU of capacity %s%lu: %s (its pauses: %s)",
		      demand, from, sl_cpu_capacity(from), res->ms, res->throttles,
		      at_least ? "at least " : "", want, why, seen);
	to = res->change[0].to;
	cap = sl_cpu_capacity(to);
	ck_assert_msg(at_least ? cap >= want : cap == want,
		      "the busy task (demand %lu) moved from CPU %d (capacity %lu) to CPU %d of capacity %lu; expected a CPU of capacity %s%lu: %s",
		      demand, from, sl_cpu_capacity(from), to, cap, at_least ? "at least " : "",
		      want, why);
	ck_assert_msg(res->change[0].throttle == 1,
		      "the busy task moved to CPU %d when it resumed after throttle %d (%.1f ms); expected the move at its first throttle (its pauses: %s)",
		      to, res->change[0].throttle, res->change[0].ms, seen);
	ck_assert_msg(res->n == 1,
		      "after moving to CPU %d at %.1f ms the busy task moved again, from CPU %d to CPU %d at %.1f ms (%d moves in all); expected it to stay where it went",
		      to, res->change[0].ms, res->change[1].from, res->change[1].to,
		      res->change[1].ms, res->n);
	ck_assert_msg(res->throttles > SETTLE,
		      "the busy task was throttled only %d times in %.0f ms; expected one a period (its pauses: %s)",
		      res->throttles, res->ms, seen);
}

START_TEST(test_busy_task_moves_at_first_throttle)
{
	struct busy_spec spec = misfit_on(sl_slowest_cpu());
	struct busy_result res;

	check_preconditions(spec.cpu);
	busy_observe(&spec, &res, 0);
	expect_one_move(&res, sl_dl_demand(&busy_dl), 1, "a CPU that fits it");
}
END_TEST

/*
 * The misfit task moves; then a task that fits the fast CPU it starts on
 * (demand 204: 20 of 100 ms) stays there through its throttles, though
 * the slowest CPU, which fits it too, is free: only a task that does not
 * fit its CPU is moved.
 */
START_TEST(test_fitting_task_stays)
{
	struct busy_spec spec = misfit_on(sl_slowest_cpu());
	struct busy_result res;
	int fast;

	check_preconditions(spec.cpu);
	busy_observe(&spec, &res, 0);
	expect_one_move(&res, sl_dl_demand(&busy_dl), 1, "a CPU that fits it");

	fast = sl_fastest_cpu();
	spec.cpu = fast;
	spec.dl.runtime = 20 * NSEC_PER_MSEC;
	spec.dl.deadline = spec.dl.period = BUSY_PERIOD;
	busy_observe(&spec, &res, 0);
	ck_assert_msg(res.n == 0,
		      "a busy task of demand %lu, which fits CPU %d (capacity %lu) where it started, moved to CPU %d (capacity %lu) at %.1f ms; a task that fits its CPU is never moved at a throttle",
		      sl_dl_demand(&spec.dl), fast, sl_cpu_capacity(fast), res.change[0].to,
		      sl_cpu_capacity(res.change[0].to), res.change[0].ms);
	ck_assert_msg(res.throttles >= SETTLE,
		      "the fitting busy task was throttled only %d times in %.0f ms; expected one a period",
		      res.throttles, res.ms);
}
END_TEST

/*
 * Both fast CPUs busy (SCHED_DEADLINE hogs, deadline.h): no free CPU fits
 * the misfit task, and it moves from the slowest CPU to the middle one,
 * which is faster; there it stays (the slowest CPU is no better).
 */
START_TEST(test_misfit_everywhere_moves_to_faster)
{
	struct busy_spec spec = misfit_on(sl_slowest_cpu());
	unsigned long top = sl_max_capacity(), mid = 0;
	struct busy_result res;

	check_preconditions(spec.cpu);
	for (int i = 0, n = sl_nr_cpus(); i < n; i++) {
		unsigned long c = sl_cpu_capacity(i);

		if (c < top && c > sl_cpu_capacity(spec.cpu) && c > mid)
			mid = c;
	}
	ck_assert_msg(mid > 0, "this test needs three capacity tiers (TOPOLOGY=three-tier)");
	busy_observe(&spec, &res, top);
	expect_one_move(&res, mid, 0,
			"the CPUs that fit it are busy with other deadline tasks, so the fastest free one");
}
END_TEST

/* ---- the bandwidth, as the kit's debugfs file shows it ---------------------- */

/*
 * The task @pid (0: none left) holds its bandwidth @bw exactly, as
 * running_bw and this_bw of the CPU it is on, and every other CPU holds
 * none (with no task, no root domain admits any either), once what is due
 * within a period has happened (deadline.h).  @when names the moment.
 */
static void expect_bw(pid_t pid, uint64_t bw, const char *when)
{
	struct sl_dl_bw b[SL_MAX_CPUS];
	int cpu, bad = sl_dl_bw_settle(pid, bw, b, &cpu);

	if (bad < 0)
		return;
	ck_abort_msg("%s: CPU %d has running_bw %llu and this_bw %llu (root domain total_bw %llu); expected %llu, as the task%s %s (bandwidth %llu = runtime/period << 20)",
		     when, bad, (unsigned long long)b[bad].running_bw,
		     (unsigned long long)b[bad].this_bw, (unsigned long long)b[bad].total_bw,
		     (unsigned long long)(bad == cpu ? bw : 0),
		     bad == cpu ? " is on it" : "",
		     bad == cpu ? "" : cpu >= 0 ? "is elsewhere" : "is gone",
		     (unsigned long long)sl_dl_bw(&busy_dl));
}

/* The kernel log holds a WARNING or a BUG: copy its first line to @line. */
SL_MUST_CHECK static int kernel_splat(char *line, size_t size)
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
 * Moved by the throttle, the task takes its bandwidth along: its dl_rq
 * share (running_bw: it is still contending while throttled; this_bw) is
 * on the CPU it is on, exactly, and nowhere else: right after it became
 * SCHED_DEADLINE on the slowest CPU, after its move, after it left
 * SCHED_DEADLINE and came back there; and every CPU is back to zero once
 * it has left or exited.  A share left behind, or counted twice, shows
 * here at once (and underflows, with a warning, when the task leaves).
 */
START_TEST(test_bandwidth_moves_with_the_task)
{
	int little = sl_slowest_cpu(), cpu = -1, ret;
	uint64_t bw = sl_dl_bw(&busy_dl);
	long long d0, periods = 0;
	struct sl_child task;
	char splat[160];
	double t0, end;

	check_preconditions(little);
	sl_dl_spinner(&task, little, &busy_dl);
	d0 = sl_proc_sched(task.pid, "dl.deadline");
	expect_bw(task.pid, bw, "right after the task became SCHED_DEADLINE");
	/*
	 * The move is due at the first throttle.  Each replenishment moves
	 * the task's deadline on by a period: once it has been replenished
	 * twice where it started, it has run there after that throttle, and
	 * it will not move any more.
	 */
	t0 = sl_now_ms();
	for (end = t0 + WAIT_MS; sl_now_ms() < end; usleep(SL_POLL_US)) {
		/* The deadline first: a move it shows has passed shows here. */
		periods = (sl_proc_sched(task.pid, "dl.deadline") - d0) / (long long)BUSY_PERIOD;
		cpu = sl_task_cpu(task.pid);
		if ((cpu >= 0 && sl_cpu_capacity(cpu) >= sl_dl_demand(&busy_dl)) ||
		    periods >= 2)
			break;
	}
	ck_assert_msg(cpu >= 0 && sl_cpu_capacity(cpu) >= sl_dl_demand(&busy_dl),
		      "the busy task (demand %lu) was still on CPU %d (capacity %lu) after %lld replenishments (%.0f ms); expected it on a CPU that fits after its first throttle",
		      sl_dl_demand(&busy_dl), cpu, cpu >= 0 ? sl_cpu_capacity(cpu) : 0, periods,
		      sl_now_ms() - t0);
	expect_bw(task.pid, bw, "after the task moved at its first throttle");
	ret = sl_set_other(task.pid);
	ck_assert_msg(ret == 0, "switching the moved task to SCHED_OTHER failed: %s", strerror(-ret));
	expect_bw(0, 0, "after the moved task left SCHED_DEADLINE");
	ret = sl_set_dl(task.pid, BUSY_RUNTIME, BUSY_DEADLINE, BUSY_PERIOD);
	ck_assert_msg(ret == 0, "making the task SCHED_DEADLINE again failed: %s", strerror(-ret));
	expect_bw(task.pid, bw, "after the task became SCHED_DEADLINE again");
	sl_child_kill(&task);
	expect_bw(0, 0, "after the task exited");
	ck_assert_msg(!kernel_splat(splat, sizeof(splat)),
		      "the kernel log has a splat after the moves: \"%s\"", splat);
}
END_TEST

/* The tasks of the test before may still be giving their bandwidth back. */
static void setup(void)
{
	sl_wait_dl_idle();
}

/*
 * The rules against a model, on a seeded random scenario (sl_seed()):
 * RANDOM_TASKS busy tasks one after the other, each with a random demand
 * (300 to 900 over a 15 ms deadline, period 80 ms, so that even on the
 * slowest CPU it throttles with its timer armed), started on a random CPU
 * (four times in five one slower than the fastest), with the CPUs of one random
 * capacity other than its own, or none, kept busy.  The model: a task
 * that fits its CPU stays; one that does not, at its first throttle, goes
 * to what find_later_rq() offers (lab 2's rule on the free CPUs: the
 * slowest that fits, else the fastest) if that fits it or is faster than
 * its own CPU, else it stays; and it never moves again.  Each task runs
 * until it has been throttled once where it ended up.  If no task before
 * the last was to move, the last one is drawn until it is (a kernel that
 * never moves a task would pass a scenario of tasks that stay).
 */
#define RANDOM_TASKS	3
#define RANDOM_DEADLINE	(15 * NSEC_PER_MSEC)
#define RANDOM_PERIOD	(80 * NSEC_PER_MSEC)

/* The CPUs not of capacity @busy (bit N: CPU N). */
static unsigned int free_cpus(unsigned long busy)
{
	unsigned int free = 0;

	for (int i = 0, n = sl_nr_cpus(); i < n; i++)
		if (sl_cpu_capacity(i) != busy)
			free |= 1U << i;
	return free;
}

START_TEST(test_random_scenarios)
{
	int n = sl_nr_cpus(), moves = 0;

	sl_seed();
	for (int task = 1; task <= RANDOM_TASKS; task++) {
		struct busy_spec spec = { .max_ms = MAX_MS, .settle = SETTLE, .untraced = 1 };
		unsigned long demand, busy, cap, to;
		struct busy_result res;
		char seen[512], hogs[48];

		/* The last task moves if none before it did: staying proves little. */
		do {
			/* Four starts in five on a CPU slower than the fastest. */
			do
				spec.cpu = sl_rand(n);
			while ((sl_cpu_capacity(spec.cpu) == sl_max_capacity()) != !sl_rand(5));
			cap = sl_cpu_capacity(spec.cpu);
			do
				busy = sl_rand(2) ? sl_cpu_capacity(sl_rand(n)) : 0;
			while (busy == cap);
			demand = 300 + sl_rand(601);
			spec.dl = (struct sl_dl){ (RANDOM_DEADLINE * demand + SL_CAPACITY_SCALE - 1) /
						  SL_CAPACITY_SCALE, RANDOM_DEADLINE, RANDOM_PERIOD };
			demand = sl_dl_demand(&spec.dl);
			to = sl_dl_offered(demand, free_cpus(busy));
			if (cap >= demand || (to < demand && to <= cap))
				to = 0;
		} while (task == RANDOM_TASKS && !moves && !to);
		moves += !!to;
		snprintf(hogs, sizeof(hogs), busy ? "the CPUs of capacity %lu busy" : "no CPU busy", busy);
		sl_step("task %d: demand %lu (%.2f of %.0f ms, period %.0f ms), started on CPU %d of capacity %lu, %s",
			task, demand, spec.dl.runtime / 1e6, spec.dl.deadline / 1e6,
			spec.dl.period / 1e6, spec.cpu, cap, hogs);
		busy_observe(&spec, &res, busy);
		/* The hogs and the task moved the test off their CPUs: every CPU again. */
		ck_assert_int_eq(sl_unpin(0), 0);
		sl_wait_dl_idle();
		busy_history(&res, seen, sizeof(seen));
		ck_assert_msg(res.throttles > 0,
			      "the busy task was never throttled in %.0f ms; expected one a period (its pauses: %s); %s",
			      res.ms, seen, sl_scenario("test_random_scenarios"));
		if (!to) {
			ck_assert_msg(res.n == 0,
				      "the task moved to CPU %d (capacity %lu) at %.1f ms; expected it to stay: %s (its pauses: %s); %s",
				      res.change[0].to, sl_cpu_capacity(res.change[0].to), res.change[0].ms,
				      cap >= demand ? "it fits its CPU" :
				      "find_later_rq() offers no CPU that fits it or is faster than its own",
				      seen, sl_scenario("test_random_scenarios"));
			continue;
		}
		ck_assert_msg(res.n > 0 && sl_cpu_capacity(res.change[0].to) == to &&
			      res.change[0].throttle == 1 && res.n == 1,
			      "the task %s; expected one move, at its first throttle, to a CPU of capacity %lu: %s (its pauses: %s); %s",
			      res.n == 0 ? "never moved" :
			      res.change[0].throttle != 1 ? "moved later than its first throttle" :
			      res.n > 1 ? "moved more than once" : "moved to a CPU of another capacity",
			      to, to >= demand ? "the slowest free CPU that fits it" :
			      "no free CPU fits it, and the fastest free one is faster than its own",
			      seen, sl_scenario("test_random_scenarios"));
	}
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab03", setup, NULL);

	sl_add_test(s, test_busy_task_moves_at_first_throttle);
	sl_add_test(s, test_fitting_task_stays);
	sl_add_test(s, test_misfit_everywhere_moves_to_faster);
	sl_add_test(s, test_bandwidth_moves_with_the_task);
	sl_add_test(s, test_random_scenarios);
	return s;
}
