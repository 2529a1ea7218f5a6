/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uclamp.h - what the utilization clamping labs (4-6) share: the runqueues'
 * clamp buckets as the kit's debugfs file shows them, clamp values and
 * percentages, and the uclamp sysctls.
 *
 * The debugfs file is described in rqclamp.h.  Kernel threads have no clamps
 * (util_min 0, util_max 1024): on a CPU they visit they add to min bucket 0
 * and to the last max bucket, and raise the rq's util_max to 1024 while
 * they are there.  The tests use other buckets and allow for that.
 */
#ifndef SCHEDLAB_UCLAMP_H
#define SCHEDLAB_UCLAMP_H

#include "cgroup.h"
#include "rqclamp.h"
#include "task.h"

/* Read @cpu's state for @id (SL_UCLAMP_MIN or _MAX); fails the test if it cannot. */
void sl_read_rq_clamp(int cpu, int id, struct sl_rq_clamp *rc);
/* UCLAMP_BUCKETS, as the file shows it. */
int sl_uclamp_buckets(void);
/* The kernel's bucket of a clamp value (UCLAMP_BUCKET_DELTA, rounded). */
int sl_uclamp_bucket_of(unsigned int value);
/* Is any task counted in any bucket (is sched_uclamp_used switched on)? */
int sl_uclamp_counting(void);

/*
 * Expect, on @cpu for clamp @id, @tasks tasks in bucket @b and, if
 * @value >= 0, the rq value @value; @what says what led there.  The caller
 * has waited for the event that settles it (sl_spin(), sl_rest(), a write
 * that returned), so the state is checked at once.  A kernel thread
 * passing by sits in the last bucket and holds the rq value at 1024; then
 * the value checked is the one the rq takes when it leaves (the top
 * non-empty bucket's below it), and only a state that depends on the last
 * bucket itself is read again, for up to SL_SETTLE_MS.  Every read also
 * checks that the rq value is the value of its top most non-empty bucket,
 * which always holds while any task is RUNNABLE there.
 */
void sl_expect_rq(const char *what, int cpu, int id, int b,
		  unsigned long tasks, long value);
/* The same, read again for up to SL_SETTLE_MS: after an exit, whose dequeue may lag wait(). */
void sl_await_rq(const char *what, int cpu, int id, int b,
		 unsigned long tasks, long value);
#define SL_ANY_VALUE (-1L)

/* /proc/@pid/sched shows "effective uclamp.min" @min and ".max" @max. */
void sl_expect_effective(pid_t pid, long min, long max, const char *what);

/* The capacity a cpu.uclamp.* percentage (in hundredths) stands for. */
unsigned int sl_util_of_pct100(unsigned int pct100);
/* @pct100 hundredths of a percent as cpu.uclamp.* shows it: "12.50". */
char *sl_pct100_str(unsigned int pct100, char buf[16]);

/* /proc/sys/kernel/sched_util_clamp_{min,max,min_rt_default} */
#define SL_SYSCTL_UCLAMP_MIN	"/proc/sys/kernel/sched_util_clamp_min"
#define SL_SYSCTL_UCLAMP_MAX	"/proc/sys/kernel/sched_util_clamp_max"
#define SL_SYSCTL_UCLAMP_MIN_RT	"/proc/sys/kernel/sched_util_clamp_min_rt_default"
/* Write @val to one of them; fails the test if the write is refused. */
void sl_uclamp_sysctl(const char *path, unsigned int val);
/* Put all three back to 1024 (a cleanup: never fails, see sl_suite_cleanup()). */
void sl_uclamp_sysctls_default(void);

#endif /* SCHEDLAB_UCLAMP_H */
