// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1: SCHED_DEADLINE admission control sums CPU capacities.
 *
 * Each test makes children SCHED_DEADLINE one by one and compares what the
 * kernel admits with what a capacity sum allows:
 *
 *	total bandwidth <= sum(cpu_capacity) / 1024 * rt_runtime / rt_period
 *
 * in the kernel's fixed point (BW_SHIFT = 20).  Counting CPUs instead
 * admits more on an asymmetric machine; every test is built so that the
 * two give different answers there.  The capacities and the rt limits are
 * read from sysfs and procfs, never assumed.
 */
#include "schedlab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_TASKS 32
#define PERIOD (100 * NSEC_PER_MSEC)
#define HALF (50 * NSEC_PER_MSEC)
#define PART "/sys/fs/cgroup/lab01"

static pid_t pids[MAX_TASKS];
static int nr_pids;

/* Fixed-point bandwidth of runtime/period, as the kernel's to_ratio(). */
static uint64_t bw(uint64_t runtime, uint64_t period)
{
	return (runtime << 20) / period;
}

/* The bandwidth a root domain of capacity @cap may hold. */
static uint64_t limit_bw(unsigned long cap)
{
	uint64_t rt = bw(sl_rt_runtime_us(), sl_rt_period_us());

	return (rt * cap) >> 10;
}

static unsigned long capacity_of(int first, int last)
{
	unsigned long sum = 0;

	for (int i = first; i <= last; i++)
		sum += sl_cpu_capacity(i);
	return sum;
}

/*
 * A child that joins cgroup @cg (if any), makes itself SCHED_DEADLINE
 * runtime/period and then sleeps.  Returns sched_setattr's result.
 */
static int dl_child(const char *cg, uint64_t runtime, uint64_t period)
{
	int fd[2], ret = -EIO;
	pid_t pid;

	ck_assert_int_lt(nr_pids, MAX_TASKS);
	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char path[128];

		close(fd[0]);
		if (cg) {
			snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
			ret = sl_write_str(path, "0");
		}
		if (!cg || ret == 0)
			ret = sl_set_dl(0, runtime, period, period);
		if (write(fd[1], &ret, sizeof(ret)) != sizeof(ret))
			_exit(1);
		for (;;)
			pause();
	}
	close(fd[1]);
	pids[nr_pids++] = pid;
	if (read(fd[0], &ret, sizeof(ret)) != sizeof(ret))
		ret = -EIO;
	close(fd[0]);
	return ret;
}

/* Start 50/100 ms tasks until one is refused; returns how many were admitted. */
static int fill(const char *cg)
{
	int n = 0, ret;

	while ((ret = dl_child(cg, HALF, PERIOD)) == 0)
		n++;
	ck_assert_msg(ret == -EBUSY,
		      "sched_setattr(SCHED_DEADLINE) failed with %d, expected 0 or -EBUSY", ret);
	return n;
}

static void restore_defaults(void);

/*
 * Admit as many 50/100 ms tasks as capacity @cap holds, each of which
 * must be admitted; returns how many.
 */
static int admit_capacity(unsigned long cap)
{
	int n = limit_bw(cap) / bw(HALF, PERIOD);

	for (int i = 0; i < n; i++) {
		int ret = dl_child(NULL, HALF, PERIOD);

		ck_assert_msg(ret == 0, "task %d of %d (50/100 ms, capacity %lu) was refused: %d",
			      i + 1, n, cap, ret);
	}
	return n;
}

static void reap_all(void)
{
	sl_reap(pids, nr_pids);
	nr_pids = 0;
}

START_TEST(test_admits_capacity_sum)
{
	unsigned long cap = capacity_of(0, sl_nr_cpus() - 1);
	int want = limit_bw(cap) / bw(HALF, PERIOD);
	int got = fill(NULL);

	reap_all();
	ck_assert_msg(got == want,
		      "admitted %d tasks of 50/100 ms; a capacity sum of %lu admits %d (counting %d CPUs would admit %d)",
		      got, cap, want, sl_nr_cpus(),
		      (int)(limit_bw(sl_nr_cpus() * 1024UL) / bw(HALF, PERIOD)));
}
END_TEST

START_TEST(test_follows_rt_runtime)
{
	unsigned long cap = capacity_of(0, sl_nr_cpus() - 1);
	char val[32];
	int want, got;

	/* 60% of the period: a capacity sum and a CPU count differ here. */
	snprintf(val, sizeof(val), "%ld", sl_rt_period_us() * 6 / 10);
	ck_assert_msg(sl_write_str("/proc/sys/kernel/sched_rt_runtime_us", val) == 0,
		      "cannot set sched_rt_runtime_us to %s", val);
	want = limit_bw(cap) / bw(HALF, PERIOD);
	got = fill(NULL);
	restore_defaults();
	ck_assert_msg(got == want,
		      "with sched_rt_runtime_us=%s, admitted %d tasks of 50/100 ms; capacity sum %lu admits %d",
		      val, got, cap, want);
}
END_TEST

START_TEST(test_increase_refused)
{
	unsigned long cap = capacity_of(0, sl_nr_cpus() - 1);
	uint64_t free_bw, runtime;
	int n = admit_capacity(cap), ret;

	/* Grow task 0 by just more than what is left under the capacity sum. */
	free_bw = limit_bw(cap) - n * bw(HALF, PERIOD);
	runtime = HALF + ((free_bw * PERIOD) >> 20) + NSEC_PER_MSEC;
	ck_assert_msg(runtime <= PERIOD, "topology leaves no room for this test");
	ret = sl_set_dl(pids[0], runtime, PERIOD, PERIOD);
	reap_all();
	ck_assert_msg(ret == -EBUSY,
		      "growing an admitted task from 50 to %llu ms of 100 ms exceeds capacity %lu, but sched_setattr returned %d, not -EBUSY",
		      (unsigned long long)(runtime / NSEC_PER_MSEC), cap, ret);
}
END_TEST

START_TEST(test_decrease_frees_bandwidth)
{
	unsigned long cap = capacity_of(0, sl_nr_cpus() - 1);
	uint64_t small = 20 * NSEC_PER_MSEC, free_bw, runtime;
	int n = admit_capacity(cap), shrink, fits, over;

	/* Shrink one task, then exactly fill what that gave back ... */
	shrink = sl_set_dl(pids[0], small, PERIOD, PERIOD);
	free_bw = limit_bw(cap) - (n - 1) * bw(HALF, PERIOD) - bw(small, PERIOD);
	runtime = ((free_bw * PERIOD) >> 20) - 100 * NSEC_PER_USEC;
	fits = dl_child(NULL, runtime, PERIOD);
	/*
	 * ... after which not even 0.2 ms more may be admitted.  The margins
	 * are a tenth of a millisecond: well above the kernel's rounding
	 * (2^-20 of a period) and below what one unit of capacity per CPU
	 * is worth (4/1024 x 95% of 100 ms = 0.37 ms).
	 */
	over = dl_child(NULL, 200 * NSEC_PER_USEC, PERIOD);
	reap_all();
	ck_assert_msg(shrink == 0, "shrinking an admitted task to 20/100 ms failed: %d", shrink);
	ck_assert_msg(fits == 0,
		      "after the shrink, a %llu us/100 ms task fits capacity %lu but was refused (%d)",
		      (unsigned long long)(runtime / NSEC_PER_USEC), cap, fits);
	ck_assert_msg(over == -EBUSY,
		      "capacity %lu is full, yet a further 0.2/100 ms task was admitted (%d)",
		      cap, over);
}
END_TEST

/*
 * A cgroup v2 cpuset partition makes its CPUs a root domain of their own;
 * what is left forms another.  @first..@last are the partition's CPUs.
 */
static void make_partition(int first, int last)
{
	char cpus[32];

	ck_assert_int_eq(sl_write_str("/sys/fs/cgroup/cgroup.subtree_control", "+cpuset"), 0);
	ck_assert(mkdir(PART, 0755) == 0 || errno == EEXIST);
	snprintf(cpus, sizeof(cpus), "%d-%d", first, last);
	ck_assert_int_eq(sl_write_str(PART "/cpuset.cpus", cpus), 0);
	ck_assert_msg(sl_write_str(PART "/cpuset.cpus.partition", "root") == 0,
		      "cannot make CPUs %s a root partition", cpus);
}

static void remove_partition(void)
{
	reap_all();
	sl_write_str(PART "/cpuset.cpus.partition", "member");
	rmdir(PART);
}

/* The CPUs of the lowest (@big = 0) or highest capacity: a contiguous range. */
static void cpus_of(int big, int *first, int *last)
{
	unsigned long want = big ? sl_max_capacity() : sl_min_capacity();

	*first = -1;
	for (int i = 0; i < sl_nr_cpus(); i++) {
		if (sl_cpu_capacity(i) != want)
			continue;
		if (*first < 0)
			*first = i;
		*last = i;
	}
	ck_assert_msg(*first >= 0 && *last < sl_nr_cpus() - 1 + big &&
		      (*first == 0 || *last == sl_nr_cpus() - 1),
		      "expected the %s CPUs to be a range at one end", big ? "big" : "little");
}

static void check_partition(int big)
{
	int first = 0, last = 0, n = sl_nr_cpus();
	unsigned long in_cap, out_cap;
	int in_want, out_want, in_got, out_got;

	cpus_of(big, &first, &last);
	in_cap = capacity_of(first, last);
	out_cap = capacity_of(0, n - 1) - in_cap;
	make_partition(first, last);
	in_want = limit_bw(in_cap) / bw(HALF, PERIOD);
	out_want = limit_bw(out_cap) / bw(HALF, PERIOD);
	in_got = fill(PART);
	out_got = fill(NULL);
	remove_partition();
	ck_assert_msg(in_got == in_want,
		      "partition of the %s CPUs %d-%d (capacity %lu) admitted %d tasks of 50/100 ms, expected %d",
		      big ? "big" : "little", first, last, in_cap, in_got, in_want);
	ck_assert_msg(out_got == out_want,
		      "the rest of the CPUs (capacity %lu) admitted %d tasks of 50/100 ms, expected %d",
		      out_cap, out_got, out_want);
}

START_TEST(test_partition_little)
{
	check_partition(0);
}
END_TEST

START_TEST(test_partition_big)
{
	check_partition(1);
}
END_TEST

/* Before each test (and after a change): no tasks, no partition, 95%. */
static void restore_defaults(void)
{
	char val[32];

	remove_partition();
	snprintf(val, sizeof(val), "%ld", sl_rt_period_us() * 95 / 100);
	sl_write_str("/proc/sys/kernel/sched_rt_runtime_us", val);
}

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab01", restore_defaults, NULL);

	sl_add_test(s, test_admits_capacity_sum);
	sl_add_test(s, test_follows_rt_runtime);
	sl_add_test(s, test_increase_refused);
	sl_add_test(s, test_decrease_frees_bandwidth);
	sl_add_test(s, test_partition_little);
	sl_add_test(s, test_partition_big);
	return s;
}
