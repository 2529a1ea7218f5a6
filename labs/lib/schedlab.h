/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedlab.h - what every lab's Check suite shares.
 *
 * A lab's tests live in labs/NN-name/tests/ (every .c) and define one function,
 * lab_suite(), that returns the lab's Check suite, made with sl_suite() and
 * sl_add_test().  main() (schedlab.c) runs it in Check's fork mode, one
 * test at a time, and prints Check's verbose result line and the test's
 * duration (see sl_add_test()), which the grader reads.  Every test is
 * worth one point.
 *
 * Tests read the machine (CPU capacities, rt_runtime/rt_period) from sysfs
 * and procfs at run time; they never hard-code the topology.
 */
#ifndef SCHEDLAB_H
#define SCHEDLAB_H

#define _GNU_SOURCE
#include <check.h>
#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A helper whose result says whether it worked: the compiler makes its
 * caller look at it (the tests are built with -Werror=unused-result), so
 * no step of a test fails unnoticed.
 */
#define SL_MUST_CHECK __attribute__((warn_unused_result))

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK	0x01
#endif
#define SL_FLAG_RECLAIM			0x02
#define SL_FLAG_DL_OVERRUN		0x04
#define SL_FLAG_KEEP_POLICY		0x08
#define SL_FLAG_KEEP_PARAMS		0x10
#define SL_FLAG_UTIL_CLAMP_MIN		0x20
#define SL_FLAG_UTIL_CLAMP_MAX		0x40

#define SL_ATTR_SIZE_VER0	48
#define SL_ATTR_SIZE_VER1	56

/* struct sched_attr as the UAPI defines it (VER1). */
struct sl_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t  sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define SL_CAPACITY_SCALE 1024

/* Raw syscalls: return 0 or -errno. */
SL_MUST_CHECK int sl_setattr(pid_t pid, struct sl_attr *attr, unsigned int flags);
SL_MUST_CHECK int sl_getattr(pid_t pid, struct sl_attr *attr, unsigned int size);

/* Make @pid (0: self) SCHED_DEADLINE with runtime/deadline/period in ns. */
SL_MUST_CHECK int sl_set_dl(pid_t pid, uint64_t runtime, uint64_t deadline, uint64_t period);
/* Back to SCHED_OTHER. */
SL_MUST_CHECK int sl_set_other(pid_t pid);
/* Make @pid (0: self) @policy with RT priority @prio and sched_flags @flags. */
SL_MUST_CHECK int sl_set_policy(pid_t pid, int policy, int prio, uint64_t flags);

/*
 * Seeded random scenarios (a test that checks a lab against a model of its
 * rules on random operations): sl_seed() is this run's seed, the grader's
 * SEED (make grade ... TEST=name SEED=n replays a failure) or else a new
 * one; sl_rand(n) is 0..n-1, from it.  sl_step() says what a step does:
 * "step N: ..." in the results log, and the last few are kept;
 * sl_nr_steps() counts them.  sl_scenario(test), for a failure message:
 * the seed, how to replay it, and the last steps.
 */
unsigned int sl_seed(void);
unsigned int sl_rand(unsigned int n);
void sl_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int sl_nr_steps(void);
const char *sl_scenario(const char *test);

/* Topology, read from sysfs; at most SL_MAX_CPUS CPUs (kconfig/: NR_CPUS). */
#define SL_MAX_CPUS	8
int sl_nr_cpus(void);
unsigned long sl_cpu_capacity(int cpu);
unsigned long sl_max_capacity(void);

/* /proc/sys/kernel/sched_rt_{runtime,period}_us */
long sl_read_long(const char *path);
SL_MUST_CHECK int sl_write_str(const char *path, const char *val);
long sl_rt_runtime_us(void);
long sl_rt_period_us(void);

/*
 * Children that sleep until killed.  sl_spawn_sleepers() forks @n of them
 * and returns once each sleeps; sl_reap() kills and waits for every pid in
 * @pids.
 */
SL_MUST_CHECK int sl_spawn_sleepers(pid_t *pids, int n);
void sl_reap(pid_t *pids, int n);

/*
 * A numeric field of /proc/PID/sched (SCHED_DEBUG), by its name: e.g.
 * "effective uclamp.min".  Fails the test when it is not there.
 */
long sl_proc_sched(pid_t pid, const char *key);

/*
 * The context switches CPU @cpu has made (its .nr_switches in
 * /sys/kernel/debug/sched/debug, SCHED_DEBUG).  Fails the test when the
 * file does not show it.
 */
long sl_cpu_switches(int cpu);

/* Pin @pid to one CPU. */
SL_MUST_CHECK int sl_pin(pid_t pid, int cpu);
/* Let @pid (0: self) run on every CPU again; 0 or -errno. */
SL_MUST_CHECK int sl_unpin(pid_t pid);

/*
 * Wait until @pid is asleep and dequeued: its state is S and it has
 * switched out voluntarily more than @nvcsw times (its
 * voluntary_ctxt_switches before what puts it to sleep; 0 for a new
 * task).  Fails the test after SL_SETTLE_MS, naming @after, what it
 * waited since.
 */
void sl_wait_asleep(pid_t pid, long nvcsw, const char *after);

/*
 * A spinner: a child pinned to @cpu (moved into cgroup @grp unless NULL)
 * that busy-loops, RUNNABLE, after sl_spin() and blocks after sl_rest().
 * sl_spawn_spinner() returns once it sleeps; sl_spin() once it runs (it
 * says so in a page it shares with the test), and so is enqueued;
 * sl_rest() once it is asleep and dequeued (its state is S and it has
 * switched out voluntarily since).  sl_reap() ends it.
 */
pid_t sl_spawn_spinner(int cpu, const char *grp);
void sl_spin(pid_t pid);
void sl_rest(pid_t pid);

/* How long a test waits for an event the kernel makes happen at once. */
#define SL_SETTLE_MS 2000
/* How often a wait for such an event looks again. */
#define SL_POLL_US 1000

/*
 * The lab's suite: sl_suite(name, setup, teardown) makes it, and each
 * sl_add_test(suite, test) adds one test as a Check test case of its own,
 * named after the test, with @setup/@teardown (either may be NULL) as its
 * checked fixture (run in the test's process, around it).  So Check's
 * CK_RUN_CASE=<test> runs one test alone, and main() times each one:
 *
 *	<check's verbose result line>
 *	TIME <test> <microseconds>
 *
 * Write one sl_add_test() a line: the build lists a lab's tests from them.
 */
#define sl_add_test(s, fn) sl_add_tcase((s), (fn), #fn)
Suite *sl_suite(const char *name, SFun setup, SFun teardown);
/*
 * sl_suite_cleanup(fn): run @fn after each test added from then on, in the
 * runner's own process (Check's unchecked fixture), so it runs even when
 * the test failed half-way: for what a test must never leave behind (a
 * sysctl it changed).  @fn must not fail.
 */
void sl_suite_cleanup(SFun cleanup);
void sl_add_tcase(Suite *s, const TTest *fn, const char *name);

/* The lab's Check suite; defined once in each lab's tests. */
Suite *lab_suite(void);

#endif /* SCHEDLAB_H */
