// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1: SCHED_DEADLINE admission control sums CPU capacities.
 *
 * A root domain of capacity C (the sum of its active CPUs' capacities,
 * the biggest CPU being 1024) admits SCHED_DEADLINE bandwidth (runtime /
 * period, summed over its tasks) up to
 *
 *	C / 1024 * sched_rt_runtime_us / sched_rt_period_us
 *
 * in the kernel's fixed point (BW_SHIFT = 20: 1 << 20 is a whole CPU).
 * Each test fills a root domain to half a capacity unit below that limit,
 * all of which must be admitted, then asks for one unit more, which must
 * be refused.  Half a unit is 1/2048 of a big CPU: far above the kernel's
 * rounding (1/1048576 of a period) and far below any counting error (a
 * CPU counted instead of its capacity is hundreds of units).  Counting
 * CPUs instead admits more on an asymmetric machine; every test is built
 * so that the two give different answers there.
 *
 * The tasks are sleeping children made SCHED_DEADLINE from here; admission
 * asks the root domain of the CPU the task last ran on, so each child
 * first runs on a chosen CPU.  Their period is 2^20 x 100 ns, which makes
 * every bandwidth b exactly a runtime of b x 100 ns.  The capacities and
 * the rt limits are read from sysfs and procfs, never assumed; each test
 * starts once the kit's debugfs file (deadline.h) shows that the tasks of
 * the one before have given their bandwidth back.
 */
#include "cgroup.h"
#include "deadline.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PERIOD		(SL_BW_UNIT * 100)	/* ns: bandwidth b is b x 100 ns */
#define MAX_TASKS	16
#define PART		"lab01"
#define CPU_SYSFS	"/sys/devices/system/cpu"

static struct sl_child tasks[MAX_TASKS];
static int nr_tasks, nr_cpus;
static unsigned long cap[SL_MAX_CPUS];

/* ---- the kernel's arithmetic --------------------------------------------- */

/* What a root domain of capacity @c may hold: cap_scale(dl_b->bw, c). */
static uint64_t limit_bw(unsigned long c)
{
	uint64_t rt = sl_to_ratio(sl_rt_period_us() * NSEC_PER_USEC,
				  sl_rt_runtime_us() * NSEC_PER_USEC);

	return (rt * c) >> 10;
}

/* Half a capacity unit: the precision every test asks for. */
static uint64_t half_unit(void)
{
	return limit_bw(1) / 2 ?: 1;
}

static double cpus(uint64_t bw)
{
	return (double)bw / SL_BW_UNIT;
}

/* The capacity of the CPUs @first..@last, as sysfs had it at the start. */
static unsigned long capacity_of(int first, int last)
{
	unsigned long sum = 0;

	for (int i = first; i <= last; i++)
		sum += cap[i];
	return sum;
}

/* ---- sleeping children on a chosen CPU ----------------------------------- */

struct sleeper_arg {
	const char *grp;
	int cpu;
};

/* Join @grp, run on @cpu and sleep there, pinned. */
static void sleeper(const void *arg, void *res)
{
	const struct sleeper_arg *a = arg;
	char step[64];
	int ret;

	if (a->grp) {
		ret = sl_cg_move(a->grp, 0);
		if (ret)
			sl_child_fail("joining the cpuset partition", ret);
	}
	snprintf(step, sizeof(step), "running on CPU %d", a->cpu);
	ret = sl_pin(0, a->cpu);
	if (ret || sched_getcpu() != a->cpu)
		sl_child_fail(step, ret ?: -EAGAIN);
	sl_child_ready();
	for (;;)
		pause();
}

/*
 * A sleeping child that last ran on @cpu, in group @grp (NULL: the root),
 * allowed on every CPU: SCHED_DEADLINE refuses an affinity smaller than
 * the root domain.  It sleeps pinned, and only then is its affinity
 * widened, which leaves a sleeping task where it is.  Widened while it
 * runs, it could be moved (the balancer pulls it while the test wakes up)
 * and go to sleep on another CPU; a CPU taken offline with a deadline
 * task asleep on it makes 6.1 count the task's bandwidth in the root
 * domain of offline CPUs, where nothing gives it back.
 */
static pid_t new_task(const char *grp, int cpu)
{
	struct sleeper_arg a = { .grp = grp, .cpu = cpu };
	struct sl_child *c = &tasks[nr_tasks];
	int now, ret;

	ck_assert_int_lt(nr_tasks, MAX_TASKS);
	sl_child_start(c, sleeper, &a, sizeof(struct sl_report));
	nr_tasks++;
	sl_child_wait_ready(c);
	sl_wait_asleep(c->pid, 0, "it was ready");
	ret = sl_unpin(c->pid);
	ck_assert_msg(ret == 0, "widening the affinity of a task: %s", strerror(-ret));
	now = sl_task_cpu(c->pid);
	ck_assert_msg(now == cpu,
		      "a task that went to sleep pinned to CPU %d is on CPU %d once its affinity is widened",
		      cpu, now);
	return c->pid;
}

/* Give @pid SCHED_DEADLINE bandwidth @bw; 0 or -errno. */
SL_MUST_CHECK static int set_bw(pid_t pid, uint64_t bw)
{
	return sl_set_dl(pid, bw * 100, PERIOD, PERIOD);
}

static void kill_tasks(void)
{
	for (int i = 0; i < nr_tasks; i++)
		sl_child_kill(&tasks[i]);
	nr_tasks = 0;
}

/* ---- filling a root domain ------------------------------------------------ */

/*
 * Admit @amount of bandwidth in new tasks on @cpu (in @grp), in as few
 * tasks as can hold it, each with room to grow by a capacity unit (none
 * is tiny: a deadline task with a few microseconds of runtime can be
 * throttled in the middle of exiting, and 6.1 then never gives its
 * bandwidth back).  Fails the test if any is refused; returns the last
 * task, which holds *@last_bw.
 */
static pid_t fill(const char *grp, int cpu, uint64_t amount, uint64_t *last_bw,
		  const char *what)
{
	uint64_t most = SL_BW_UNIT - SL_BW_UNIT / 64, done = 0, each;
	int n = (amount + most - 1) / most;
	pid_t pid = 0;

	each = amount / n;
	for (int i = 0; i < n; i++) {
		uint64_t bw = i < n - 1 ? each : amount - done;
		int ret;

		pid = new_task(grp, cpu);
		ret = set_bw(pid, bw);
		ck_assert_msg(ret == 0,
			      "%s: a task of %.4f CPU was refused (%s) after %.4f CPU had been admitted, of %.4f that must fit",
			      what, cpus(bw), strerror(-ret), cpus(done), cpus(amount));
		done += bw;
		*last_bw = bw;
	}
	return pid;
}

/*
 * The root domain of @cpu (in @grp) must admit @free more bandwidth, to
 * half a capacity unit: @free less half a unit is admitted, then growing
 * the last task by a whole unit more is refused.  @why names the
 * capacity behind @free.
 */
static void expect_free(const char *grp, int cpu, uint64_t free, const char *what,
			const char *why)
{
	uint64_t h = half_unit(), bw;
	pid_t last;
	int ret;

	ck_assert_msg(free > h, "%s: no room for this test (%.4f CPU free)", what, cpus(free));
	last = fill(grp, cpu, free - h, &bw, what);
	ret = set_bw(last, bw + 2 * h);
	ck_assert_msg(ret == -EBUSY,
		      "%s: after %.4f CPU of bandwidth, a further %.4f (one capacity unit) %s; %s admits only %.4f",
		      what, cpus(free - h), cpus(2 * h),
		      ret ? strerror(-ret) : "was admitted", why, cpus(free));
}

/* What a limit is made of, for the messages: capacity @c of @n CPUs. */
static const char *why_cap(char *buf, size_t len, unsigned long c, int n)
{
	snprintf(buf, len, "capacity %lu at %ld%% (counting its %d CPU%s as 1024%s would admit %.4f)",
		 c, sl_rt_runtime_us() * 100 / sl_rt_period_us(), n, n == 1 ? "" : "s",
		 n == 1 ? "" : " each", cpus(limit_bw(n * 1024UL)));
	return buf;
}

/* ---- CPUs going offline --------------------------------------------------- */

/* Write @on to cpuN/online; 0 or -errno. */
SL_MUST_CHECK static int cpu_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
	return sl_write_str(path, on ? "1" : "0");
}

/* ---- the tests ------------------------------------------------------------- */

/* The whole machine, asked by a task on each CPU in turn. */
START_TEST(test_admits_capacity_sum)
{
	unsigned long c = capacity_of(0, nr_cpus - 1);
	char what[64], why[128];

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(what, sizeof(what), "asked from CPU %d (capacity %lu)", cpu, cap[cpu]);
		expect_free(NULL, cpu, limit_bw(c), what, why_cap(why, sizeof(why), c, nr_cpus));
		kill_tasks();
		sl_wait_dl_idle();
	}
}
END_TEST

START_TEST(test_follows_rt_runtime)
{
	unsigned long c = capacity_of(0, nr_cpus - 1);
	char val[32], why[128];

	/* 60% of the period: the limit moves with it. */
	snprintf(val, sizeof(val), "%ld", sl_rt_period_us() * 6 / 10);
	ck_assert_msg(sl_write_str("/proc/sys/kernel/sched_rt_runtime_us", val) == 0,
		      "cannot set sched_rt_runtime_us to %s", val);
	expect_free(NULL, sl_slowest_cpu(), limit_bw(c), "with sched_rt_runtime_us at 60%",
		    why_cap(why, sizeof(why), c, nr_cpus));
}
END_TEST

/* Growing an admitted task is checked against what is left, with its own
 * bandwidth given back first. */
START_TEST(test_increase_refused)
{
	unsigned long c = capacity_of(0, nr_cpus - 1);
	uint64_t limit = limit_bw(c), h = half_unit(), quarter = SL_BW_UNIT / 4, bw;
	pid_t grower = new_task(NULL, 0);
	int ret, over, fits;

	/* A quarter of a CPU, and others up to half a CPU below the limit. */
	ret = set_bw(grower, quarter);
	ck_assert_msg(ret == 0, "a task of 0.25 CPU was refused (%d)", ret);
	fill(NULL, 0, limit - quarter - SL_BW_UNIT / 2, &bw, "filling the machine");
	/* Growing by half a CPU fills it exactly: try half a unit more, then less. */
	over = set_bw(grower, quarter + SL_BW_UNIT / 2 + h);
	fits = set_bw(grower, quarter + SL_BW_UNIT / 2 - h);
	ck_assert_msg(over == -EBUSY,
		      "growing an admitted task from 0.25 to %.4f CPU puts the machine half a capacity unit over what capacity %lu admits (%.4f), but sched_setattr() returned %d, not -EBUSY",
		      cpus(quarter + SL_BW_UNIT / 2 + h), c, cpus(limit), over);
	ck_assert_msg(fits == 0,
		      "growing an admitted task from 0.25 to %.4f CPU leaves the machine half a capacity unit under what capacity %lu admits (%.4f), but was refused (%d)",
		      cpus(quarter + SL_BW_UNIT / 2 - h), c, cpus(limit), fits);
}
END_TEST

/* Shrinking a task gives back exactly the difference. */
START_TEST(test_decrease_frees_bandwidth)
{
	unsigned long c = capacity_of(0, nr_cpus - 1);
	uint64_t limit = limit_bw(c), h = half_unit(), bw;
	pid_t first;
	char why[128];
	int ret;

	/* Full to half a unit, the first task holding a whole CPU ... */
	first = new_task(NULL, 0);
	ret = set_bw(first, SL_BW_UNIT);
	ck_assert_msg(ret == 0, "a task of 1 CPU was refused (%d)", ret);
	fill(NULL, 0, limit - SL_BW_UNIT - h, &bw, "filling the machine");
	/* ... which then shrinks to a fifth. */
	ret = set_bw(first, SL_BW_UNIT / 5);
	ck_assert_msg(ret == 0, "shrinking an admitted task from 1 to 0.2 CPU failed (%d)", ret);
	snprintf(why, sizeof(why), "shrinking a task by 0.8 CPU on a full machine (capacity %lu)", c);
	expect_free(NULL, 0, SL_BW_UNIT - SL_BW_UNIT / 5 + h, "after the shrink", why);
}
END_TEST

/*
 * The big CPUs (@big = 1: those of the highest capacity) or the little ones
 * (@big = 0: every other CPU, of one capacity or more): a range at one end.
 */
static void cpus_of(int big, int *first, int *last)
{
	unsigned long max = sl_max_capacity();

	*first = -1;
	for (int i = 0; i < nr_cpus; i++) {
		if ((cap[i] == max) != big)
			continue;
		if (*first < 0)
			*first = i;
		*last = i;
	}
	ck_assert_msg(*first >= 0 && *last < nr_cpus - 1 + big &&
		      (*first == 0 || *last == nr_cpus - 1),
		      "expected the %s CPUs to be a range at one end", big ? "big" : "little");
}

/* The cpuset list of the CPUs @first..@last ("1" or "0-1"), in @buf. */
static const char *cpu_range(char *buf, size_t len, int first, int last)
{
	if (first == last)
		snprintf(buf, len, "%d", first);
	else
		snprintf(buf, len, "%d-%d", first, last);
	return buf;
}

/* The name of the cpuset partition of the tier of little CPUs from @first. */
static const char *tier_group(char *buf, size_t len, int first)
{
	snprintf(buf, len, "%s-%d", PART, first);
	return buf;
}

/*
 * A cgroup v2 cpuset partition is a root domain of its own, and so are the
 * CPUs left outside: each admits what its own capacity allows.  @grp is a
 * partition of the CPUs @first..@last.
 */
static void check_partition(const char *grp, int first, int last, const char *which)
{
	unsigned long in_cap = capacity_of(first, last);
	char cpulist[32], what[96], why[128];

	cpu_range(cpulist, sizeof(cpulist), first, last);
	sl_partition_make(grp, cpulist);
	snprintf(what, sizeof(what), "the partition of the %s CPUs %s", which, cpulist);
	expect_free(grp, first, limit_bw(in_cap), what,
		    why_cap(why, sizeof(why), in_cap, last - first + 1));
}

/* The CPUs outside partitions of CPUs @first..@last (a range at one end). */
static void check_outside(int first, int last)
{
	int out = first ? 0 : last + 1;
	unsigned long out_cap = capacity_of(0, nr_cpus - 1) - capacity_of(first, last);
	char cpulist[32], what[96], why[128];

	snprintf(what, sizeof(what), "the CPUs outside the partitions of CPUs %s",
		 cpu_range(cpulist, sizeof(cpulist), first, last));
	expect_free(NULL, out, limit_bw(out_cap), what,
		    why_cap(why, sizeof(why), out_cap, nr_cpus - (last - first + 1)));
}

/*
 * The little CPUs, each capacity of them a partition of its own (CPU 0
 * and CPU 1 on 256 512 1024 1024), and the big ones left outside: no root
 * domain is then asymmetric, yet only the big CPUs are full size.
 */
START_TEST(test_partition_little)
{
	int first = 0, last = 0, lo, hi;
	char grp[32];

	cpus_of(0, &first, &last);
	for (lo = first; lo <= last; lo = hi + 1) {
		for (hi = lo; hi < last && cap[hi + 1] == cap[lo]; hi++)
			;
		check_partition(tier_group(grp, sizeof(grp), lo), lo, hi, "little");
	}
	check_outside(first, last);
}
END_TEST

/* The big CPUs a partition, the little ones left outside. */
START_TEST(test_partition_big)
{
	int first = 0, last = 0;

	cpus_of(1, &first, &last);
	check_partition(PART, first, last, "big");
	check_outside(first, last);
}
END_TEST

/* An offline CPU is not active: its capacity does not count. */
START_TEST(test_offline_cpu_not_counted)
{
	int off, first = 0, last = 0, ret;
	char what[64], why[128];
	unsigned long c;

	cpus_of(0, &first, &last);
	off = last ? last : first + 1;	/* a little CPU, not CPU 0 */
	c = capacity_of(0, nr_cpus - 1) - cap[off];
	ret = cpu_online(off, 0);
	ck_assert_msg(ret == 0, "taking CPU %d offline failed: %s", off, strerror(-ret));
	snprintf(what, sizeof(what), "with CPU %d (capacity %lu) offline", off, cap[off]);
	expect_free(NULL, off ? 0 : 1, limit_bw(c), what, why_cap(why, sizeof(why), c, nr_cpus - 1));
}
END_TEST

/*
 * Taking a CPU offline is refused while the other CPUs cannot hold what
 * is admitted; allowed once they can.
 */
START_TEST(test_offline_refused_when_full)
{
	int off = sl_fastest_cpu(), ret;
	unsigned long rest = capacity_of(0, nr_cpus - 1) - cap[off];
	uint64_t h = half_unit(), hold = limit_bw(rest) + h, bw;
	pid_t last;

	last = fill(NULL, 0, hold, &bw, "filling the machine");
	ret = cpu_online(off, 0);
	ck_assert_msg(ret == -EBUSY,
		      "with %.4f CPU of bandwidth admitted, the CPUs left without CPU %d (capacity %lu) admit only %.4f, yet taking it offline returned %d, not -EBUSY",
		      cpus(hold), off, rest, cpus(limit_bw(rest)), ret);
	/* A unit less fits. */
	ret = set_bw(last, bw - 2 * h);
	ck_assert_msg(ret == 0, "shrinking an admitted task failed (%d)", ret);
	ret = cpu_online(off, 0);
	ck_assert_msg(ret == 0,
		      "with %.4f CPU of bandwidth admitted, which the CPUs left without CPU %d (capacity %lu) can hold (%.4f), taking it offline failed: %s",
		      cpus(hold - 2 * h), off, rest, cpus(limit_bw(rest)), strerror(-ret));
}
END_TEST

/*
 * Moving an admitted task into a cpuset partition is refused when the
 * partition's root domain cannot hold it besides what it holds already.
 */
START_TEST(test_attach_refused_when_full)
{
	int first = 0, last = 0, ret;
	uint64_t h = half_unit(), bw = SL_BW_UNIT / 2, in_limit, fbw;
	char cpulist[32];
	pid_t mover, filler;
	unsigned long in_cap;

	cpus_of(0, &first, &last);
	in_cap = capacity_of(first, last);
	in_limit = limit_bw(in_cap);
	cpu_range(cpulist, sizeof(cpulist), first, last);
	sl_partition_make(PART, cpulist);
	/* Half a CPU outside the partition ... */
	mover = new_task(NULL, last + 1);
	ret = set_bw(mover, bw);
	ck_assert_msg(ret == 0, "a task of 0.5 CPU outside the partition was refused (%d)", ret);
	/* ... and inside it all but half a CPU, and half a unit over. */
	filler = fill(PART, first, in_limit - bw + h, &fbw, "filling the partition");
	ret = sl_cg_move(PART, mover);
	ck_assert_msg(ret == -EBUSY,
		      "moving a task of %.4f CPU into the partition of CPUs %s (capacity %lu, admits %.4f), which holds %.4f already, returned %d, not -EBUSY",
		      cpus(bw), cpulist, in_cap, cpus(in_limit), cpus(in_limit - bw + h), ret);
	ret = set_bw(filler, fbw - 2 * h);
	ck_assert_msg(ret == 0, "shrinking a task in the partition failed (%d)", ret);
	ret = sl_cg_move(PART, mover);
	ck_assert_msg(ret == 0,
		      "moving a task of %.4f CPU into the partition of CPUs %s (capacity %lu, admits %.4f), which holds %.4f, failed: %s",
		      cpus(bw), cpulist, in_cap, cpus(in_limit), cpus(in_limit - bw - h),
		      strerror(-ret));
}
END_TEST

/*
 * A partition's CPUs may shrink only to CPUs that can hold what it has
 * admitted: cpuset asks dl_cpuset_cpumask_can_shrink(), which asks
 * __dl_bw_capacity() about the CPUs the partition would keep, not yet a
 * root domain of their own.
 */
START_TEST(test_shrink_refused_when_full)
{
	int first = 0, last = 0, ret;
	uint64_t h = half_unit(), hold, bw;
	unsigned long keep_cap;
	char cpulist[32], keep[16];
	pid_t filler;

	cpus_of(0, &first, &last);
	ck_assert_msg(last > first, "this test needs two little CPUs or more, the machine has CPU %d only",
		      first);
	keep_cap = cap[last];
	hold = limit_bw(keep_cap) + h;
	cpu_range(cpulist, sizeof(cpulist), first, last);
	cpu_range(keep, sizeof(keep), last, last);
	sl_partition_make(PART, cpulist);
	filler = fill(PART, last, hold, &bw, "filling the partition");
	ret = sl_cg_try_write(PART, "cpuset.cpus", keep);
	ck_assert_msg(ret == -EBUSY,
		      "with %.4f CPU of bandwidth admitted in the partition of CPUs %s, shrinking it to CPU %d (capacity %lu, admits %.4f) returned %d, not -EBUSY",
		      cpus(hold), cpulist, last, keep_cap, cpus(limit_bw(keep_cap)), ret);
	ret = set_bw(filler, bw - 2 * h);
	ck_assert_msg(ret == 0, "shrinking a task in the partition failed (%d)", ret);
	ret = sl_cg_try_write(PART, "cpuset.cpus", keep);
	ck_assert_msg(ret == 0,
		      "with %.4f CPU of bandwidth admitted in the partition of CPUs %s, which CPU %d (capacity %lu, admits %.4f) can hold, shrinking the partition to it failed: %s",
		      cpus(hold - 2 * h), cpulist, last, keep_cap, cpus(limit_bw(keep_cap)),
		      strerror(-ret));
}
END_TEST

/*
 * A SCHED_FIFO task that keeps @cpu busy until killed: it spins, and rests
 * 1 ms of every 20.  The rest is for the CPU's ksoftirqd (see below).
 */
static void rt_spinner(const void *arg, void *res)
{
	struct sched_param fifo = { .sched_priority = 1 };
	int cpu = *(const int *)arg;

	if (sl_pin(0, cpu))
		sl_child_fail("pinning itself", -errno);
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		sl_child_fail("becoming SCHED_FIFO", -errno);
	sl_child_ready();
	for (;;) {
		double rest = sl_now_ms() + 19;

		while (sl_now_ms() < rest)
			;
		usleep(1000);
	}
}

/*
 * Wait until the load balancer has lowered @cpu's capacity_of() (the
 * kit's debugfs file) below half its original capacity, for at most
 * @bound_ms; return the capacity last read.  The spinner's PELT signal
 * (95% of the CPU) passes half the CPU after about 35 ms (32 ms is its
 * half-life), and a busy CPU balances itself, updating its capacity_of(),
 * every 128 ms at most.  Balancing is a softirq, though, and once the
 * CPU's ksoftirqd is runnable softirqs wait for it: a spinner that never
 * rested would starve it until RT throttling (sched_rt_runtime_us of each
 * sched_rt_period_us) left the CPU to it, up to a whole RT period.
 */
static unsigned long wait_rt_pressure(int cpu, long bound_ms)
{
	double end = sl_now_ms() + bound_ms;
	struct sl_dl_bw bw[SL_MAX_CPUS];

	for (;;) {
		sl_read_dl_bw(bw);
		if (bw[cpu].capacity < cap[cpu] / 2 || sl_now_ms() > end)
			return bw[cpu].capacity;
		usleep(10 * 1000);
	}
}

/*
 * The capacity that counts is the CPU's original one: RT pressure, which
 * lowers what the fair class may use of a CPU (capacity_of()), does not
 * change what SCHED_DEADLINE admits.  The test checks admission once the
 * busy CPU's capacity_of() is down to less than half its capacity: a sum
 * of capacity_of() is then hundreds of units short.
 */
START_TEST(test_rt_pressure_not_counted)
{
	unsigned long c = capacity_of(0, nr_cpus - 1), left;
	long bound_ms = 2 * sl_rt_period_us() / 1000;	/* two RT periods */
	int busy = sl_fastest_cpu();
	struct sl_child rt;
	char what[96], why[128];

	sl_child_start(&rt, rt_spinner, &busy, sizeof(struct sl_report));
	sl_child_wait_ready(&rt);
	left = wait_rt_pressure(busy, bound_ms);
	ck_assert_msg(left < cap[busy] / 2,
		      "after %ld ms of a SCHED_FIFO task on CPU %d, its capacity_of() is still %lu of %lu: the load balancer never lowered it for the RT pressure, which this test needs",
		      bound_ms, busy, left, cap[busy]);
	snprintf(what, sizeof(what), "while a SCHED_FIFO task keeps CPU %d busy (its capacity_of() %lu of %lu)",
		 busy, left, cap[busy]);
	expect_free(NULL, 0, limit_bw(c), what, why_cap(why, sizeof(why), c, nr_cpus));
	sl_child_kill(&rt);
}
END_TEST

/*
 * Wait until every CPU is in one root domain of all of them.  A CPU comes
 * online at once, but the root domains are rebuilt afterwards, by cpuset's
 * hotplug work item; until then the CPU is in a root domain of its own.
 */
static void wait_one_root_domain(void)
{
	double end = sl_now_ms() + SL_SETTLE_MS;
	struct sl_dl_bw bw[SL_MAX_CPUS];
	int n = sl_nr_cpus(), cpu;
	char all[16];

	snprintf(all, sizeof(all), n > 1 ? "0-%d" : "%d", n - 1);
	do {
		sl_read_dl_bw(bw);
		for (cpu = 0; cpu < n && !strcmp(bw[cpu].span, all); cpu++)
			;
		if (cpu == n)
			return;
		usleep(SL_POLL_US);
	} while (sl_now_ms() < end);
	ck_abort_msg("%d ms after every CPU was brought online, CPU %d is in a root domain of CPUs %s, not of all of them (%s)",
		     SL_SETTLE_MS, cpu, bw[cpu].span, all);
}

/*
 * After each test, and before one when the test before did not get to the
 * end of its own (a failed test skips it): no tasks and, once they have
 * given their bandwidth back (at their 0-lag time), no partition, every
 * CPU online and in one root domain, 95%.  In that order: 6.1 rebuilds a
 * root domain's bandwidth from the deadline tasks alive when a partition
 * goes or a CPU comes back, and one that gives its own back afterwards
 * makes the sum negative.  A clean-up that got to its end leaves CLEAN,
 * which the next set-up takes away instead of cleaning up again (10 ms).
 */
#define CLEAN	"/tmp/lab01.clean"

static void cleanup(void)
{
	char val[32], grp[32];

	kill_tasks();
	sl_wait_dl_idle();
	sl_partition_remove(PART);
	for (int cpu = 0; cpu < SL_MAX_CPUS; cpu++)
		sl_partition_remove(tier_group(grp, sizeof(grp), cpu));
	for (int cpu = 1; cpu < SL_MAX_CPUS; cpu++) {
		int ret = cpu_online(cpu, 1);

		/* (-ENOENT: no such CPU on this machine) */
		ck_assert_msg(ret == 0 || ret == -ENOENT, "clean-up: bringing CPU %d back online: %s",
			      cpu, strerror(-ret));
	}
	wait_one_root_domain();
	snprintf(val, sizeof(val), "%ld", sl_rt_period_us() * 95 / 100);
	ck_assert_msg(sl_write_str("/proc/sys/kernel/sched_rt_runtime_us", val) == 0,
		      "clean-up: putting sched_rt_runtime_us back to %s failed", val);
}

/*
 * After every test, in the runner's own process (sl_suite_cleanup()), even
 * when the test failed half-way and its teardown never ran: every CPU back
 * online and sched_rt_runtime_us back to 95%, so that a failed test does
 * not leave the machine changed for the labs after this one.  It cannot
 * fail: what does not work here is the init's to report.
 */
static void restore_machine(void)
{
	char path[64], val[32];

	for (int cpu = 1; cpu < SL_MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
		if (access(path, F_OK) == 0)
			(void)!sl_write_str(path, "1");
	}
	snprintf(val, sizeof(val), "%ld", sl_rt_period_us() * 95 / 100);
	(void)!sl_write_str("/proc/sys/kernel/sched_rt_runtime_us", val);
}

static void teardown(void)
{
	cleanup();
	ck_assert_msg(sl_write_str(CLEAN, "") == 0, "clean-up: cannot write %s", CLEAN);
}

static void setup(void)
{
	if (unlink(CLEAN))
		cleanup();
	nr_cpus = sl_nr_cpus();
	ck_assert_int_le(nr_cpus, SL_MAX_CPUS);
	for (int i = 0; i < nr_cpus; i++)
		cap[i] = sl_cpu_capacity(i);
}

/*
 * The rules against a model, on a seeded random scenario (sl_seed()):
 * sleeping tasks on CPU 0 are admitted, grown, shrunk and killed, CPUs
 * other than CPU 0 taken offline and brought back, and sched_rt_runtime_us
 * changed, at random.  After every step the return value, and the
 * bandwidth the root domain holds (the kit's debugfs file, once the root
 * domains are rebuilt after a hotplug), are compared with the model: a
 * root domain admits bandwidth up to its active CPUs' capacity x
 * rt_runtime / rt_period (cap_scale(), in the kernel's fixed point); a
 * CPU may go offline only if the others can hold what is admitted; a new
 * rt_runtime is refused (6.1, no lab's change) when a root domain holds
 * more than that many CPUs would at the new ratio; a killed task gives
 * its bandwidth back.  (No task ever sleeps on a CPU that goes offline,
 * see new_task(); and a task is made only while every CPU is online: the
 * affinity it is given covers the CPUs online then, and one made while a
 * CPU is offline is refused SCHED_DEADLINE, -EPERM, once that CPU is back
 * in its root domain.)
 *
 * A scenario is not over before one of its steps told the rule from
 * 6.1's (which counts the CPUs, 1024 each): until one has, half of the
 * bandwidth requests aim between what the two admit, and the scenario
 * runs on past RAND_STEPS (to 3 x RAND_STEPS at most).
 */
#define RAND_STEPS	30
#define RAND_POOL	6

struct model1 {
	int pool[MAX_TASKS];		/* tasks[] index of each live task */
	uint64_t bw[MAX_TASKS];		/* the bandwidth it holds, 0: none */
	int n;
	int online[SL_MAX_CPUS];
	long runtime_us;
	uint64_t total;
};

static unsigned long active_capacity(const struct model1 *m)
{
	unsigned long c = 0;

	for (int cpu = 0; cpu < nr_cpus; cpu++)
		c += m->online[cpu] ? cap[cpu] : 0;
	return c;
}

static int online_cpus(const struct model1 *m)
{
	int n = 0;

	for (int cpu = 0; cpu < nr_cpus; cpu++)
		n += m->online[cpu];
	return n;
}

/*
 * The root domain's total_bw, once CPU 0's root domain spans the CPUs
 * online and holds the model's (a killed task gives its bandwidth back as
 * it switches out for the last time, which may come after its parent's
 * wait() returned); what it holds after SL_SETTLE_MS if it never does.
 */
static uint64_t domain_total(const struct model1 *m)
{
	double end = sl_now_ms() + SL_SETTLE_MS;
	struct sl_dl_bw bw[SL_MAX_CPUS];
	char want[32] = "";
	size_t len = 0;

	/* the CPUs online, as a cpulist ("0-1,3") */
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		int last = cpu;

		if (!m->online[cpu])
			continue;
		while (last + 1 < nr_cpus && m->online[last + 1])
			last++;
		len += snprintf(want + len, sizeof(want) - len, "%s%d", len ? "," : "", cpu);
		if (last > cpu)
			len += snprintf(want + len, sizeof(want) - len, "-%d", last);
		cpu = last;
	}
	do {
		sl_read_dl_bw(bw);
		if (!strcmp(bw[0].span, want) && (bw[0].total_bw == m->total || sl_now_ms() > end))
			return bw[0].total_bw;
		usleep(SL_POLL_US);
	} while (sl_now_ms() < end + SL_SETTLE_MS);
	ck_abort_msg("%d ms after the last hotplug, CPU 0 is in a root domain of CPUs %s, not of the CPUs online (%s); %s",
		     SL_SETTLE_MS, bw[0].span, want, sl_scenario("test_random_scenarios"));
	return 0;
}

static void expect1(const struct model1 *m, const char *what, int ret, int want)
{
	uint64_t got;

	ck_assert_msg(ret == want,
		      "%s returned %d, expected %d (admitted %.4f CPU; CPUs online of capacity %lu, at %ld%% admit %.4f); %s",
		      what, ret, want, cpus(m->total), active_capacity(m), m->runtime_us * 100 / sl_rt_period_us(),
		      cpus(limit_bw(active_capacity(m))), sl_scenario("test_random_scenarios"));
	got = domain_total(m);
	ck_assert_msg(got == m->total,
		      "after %s, the root domain holds %.6f CPU of bandwidth, expected %.6f; %s",
		      what, cpus(got), cpus(m->total), sl_scenario("test_random_scenarios"));
}

START_TEST(test_random_scenarios)
{
	static const int runtimes[] = { 95, 90, 80, 70, 60 };	/* % of the period */
	struct model1 m = { .runtime_us = sl_rt_runtime_us() };
	char what[96], val[32];
	int ret, told = 0;

	for (int cpu = 0; cpu < nr_cpus; cpu++)
		m.online[cpu] = 1;
	for (m.n = 0; m.n < RAND_POOL; m.n++) {
		new_task(NULL, 0);
		m.pool[m.n] = nr_tasks - 1;
	}
	while (sl_nr_steps() < RAND_STEPS || (!told && sl_nr_steps() < 3 * RAND_STEPS)) {
		unsigned int r = sl_rand(100), i = sl_rand(m.n);
		pid_t pid = tasks[m.pool[i]].pid;

		if (r < 55) {
			/* 5% to 90% of a CPU; a task is never tiny (see fill()) */
			uint64_t bw = SL_BW_UNIT * (5 + sl_rand(86)) / 100;
			uint64_t lo = limit_bw(active_capacity(&m)), hi = limit_bw(online_cpus(&m) * 1024UL);
			uint64_t others = m.total - m.bw[i];
			int fits, same;

			/* what the capacity admits, and 6.1 too: aim between */
			if (!told && hi > lo && sl_rand(2) && others + SL_BW_UNIT / 20 <= hi)
				bw = lo + 1 + sl_rand(hi - lo) - others;
			if (bw < SL_BW_UNIT / 20 || bw > SL_BW_UNIT * 9 / 10)
				bw = SL_BW_UNIT * (5 + sl_rand(86)) / 100;
			/* 6.1 admits a deadline task's own bandwidth again at once */
			same = m.bw[i] && bw == m.bw[i];
			fits = same || others + bw <= lo;
			told |= fits != (same || others + bw <= hi);

			snprintf(what, sizeof(what), "giving task %d %.4f CPU (it held %.4f)", pid,
				 cpus(bw), cpus(m.bw[i]));
			sl_step("%s", what);
			ret = set_bw(pid, bw);
			if (fits) {
				m.total += bw - m.bw[i];
				m.bw[i] = bw;
			}
			expect1(&m, what, ret, fits ? 0 : -EBUSY);
		} else if (r < 70 && m.bw[i] && nr_tasks < MAX_TASKS && online_cpus(&m) == nr_cpus) {
			snprintf(what, sizeof(what), "killing task %d (it held %.4f CPU)", pid, cpus(m.bw[i]));
			sl_step("%s", what);
			sl_child_kill(&tasks[m.pool[i]]);
			m.total -= m.bw[i];
			m.bw[i] = 0;
			new_task(NULL, 0);
			m.pool[i] = nr_tasks - 1;
			expect1(&m, what, 0, 0);
		} else if (r < 88) {
			int cpu = 1 + sl_rand(nr_cpus - 1), on = !m.online[cpu], want = 0;

			if (!on && online_cpus(&m) <= 2)
				continue;
			if (!on && m.total > limit_bw(active_capacity(&m) - cap[cpu]))
				want = -EBUSY;
			if (!on)
				told |= !!want != (m.total > limit_bw((online_cpus(&m) - 1) * 1024UL));
			snprintf(what, sizeof(what), "taking CPU %d (capacity %lu) %s", cpu, cap[cpu],
				 on ? "online" : "offline");
			sl_step("%s", what);
			ret = cpu_online(cpu, on);
			if (!want)
				m.online[cpu] = on;
			expect1(&m, what, ret, want);
		} else {
			long period = sl_rt_period_us(), us = period * runtimes[sl_rand(5)] / 100;
			uint64_t ratio = sl_to_ratio(period * NSEC_PER_USEC, us * NSEC_PER_USEC);
			int want = ratio * online_cpus(&m) < m.total ? -EBUSY : 0;

			snprintf(val, sizeof(val), "%ld", us);
			snprintf(what, sizeof(what), "writing %ld to sched_rt_runtime_us", us);
			sl_step("%s", what);
			ret = sl_write_str("/proc/sys/kernel/sched_rt_runtime_us", val);
			if (!want)
				m.runtime_us = us;
			expect1(&m, what, ret, want);
		}
	}
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab01", setup, teardown);

	sl_suite_cleanup(restore_machine);

	sl_add_test(s, test_admits_capacity_sum);
	sl_add_test(s, test_follows_rt_runtime);
	sl_add_test(s, test_increase_refused);
	sl_add_test(s, test_decrease_frees_bandwidth);
	sl_add_test(s, test_partition_little);
	sl_add_test(s, test_partition_big);
	sl_add_test(s, test_offline_cpu_not_counted);
	sl_add_test(s, test_offline_refused_when_full);
	sl_add_test(s, test_attach_refused_when_full);
	sl_add_test(s, test_shrink_refused_when_full);
	sl_add_test(s, test_rt_pressure_not_counted);
	sl_add_test(s, test_random_scenarios);
	return s;
}
