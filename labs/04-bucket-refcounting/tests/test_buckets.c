// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 4: per-rq clamp buckets, refcounted on enqueue/dequeue, max-aggregated.
 *
 * Clamped tasks are "spinners" pinned to one CPU (the last one; the test
 * itself runs on CPU 0).  A spinner busy-loops (RUNNABLE) after SIGUSR1 and
 * blocks in sigsuspend() after SIGUSR2.  Its clamps come from a first-level
 * cgroup (cpu.uclamp.min/max): a task that sets no clamp of its own gets
 * its group's, and this works whether or not labs 5 and 6 are done.
 *
 * The kit's read-only debugfs file /sys/kernel/debug/schedlab/uclamp shows
 * each rq's clamp values and buckets (tasks and value).  Kernel threads
 * that wake on the test CPU have no clamps (util_min 0, util_max 1024):
 * they may add to min bucket 0 and max bucket B-1 only, so the tests look
 * at the other buckets, and they poll: the expected state must show up
 * within SETTLE_MS (a signal and a context switch take microseconds even
 * under TCG, so 2 s is far from flaky).
 */
#include "schedlab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define UCLAMP_FILE	"/sys/kernel/debug/schedlab/uclamp"
#define CGROOT		"/sys/fs/cgroup"
#define MAX_BUCKETS	20
#define SETTLE_MS	2000

struct rq_clamp {
	unsigned int value;
	int nr;			/* number of buckets (UCLAMP_BUCKETS) */
	unsigned long tasks[MAX_BUCKETS];
	unsigned long values[MAX_BUCKETS];
};

enum { CL_MIN, CL_MAX };

/* Read one CPU's clamp state (@id: CL_MIN or CL_MAX). */
static void read_rq(int cpu, int id, struct rq_clamp *rc)
{
	char want[32], line[1024];
	FILE *f = fopen(UCLAMP_FILE, "r");
	int found = 0;

	ck_assert_msg(f, "cannot open %s (the kit's instrumentation patch is missing?)",
		      UCLAMP_FILE);
	snprintf(want, sizeof(want), "cpu%d uclamp.%s ", cpu, id == CL_MIN ? "min" : "max");
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save;
		int n = 0, in_values = 0;

		if (strncmp(line, want, strlen(want)))
			continue;
		memset(rc, 0, sizeof(*rc));
		rc->value = strtoul(line + strlen(want), NULL, 10);
		tok = strstr(line, " tasks");
		for (tok = strtok_r(tok, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			if (!strcmp(tok, "tasks"))
				continue;
			if (!strcmp(tok, "values")) {
				rc->nr = n;
				n = 0;
				in_values = 1;
				continue;
			}
			if (n < MAX_BUCKETS) {
				if (in_values)
					rc->values[n] = strtoul(tok, NULL, 10);
				else
					rc->tasks[n] = strtoul(tok, NULL, 10);
			}
			n++;
		}
		found = 1;
		break;
	}
	fclose(f);
	ck_assert_msg(found && rc->nr > 0 && rc->nr <= MAX_BUCKETS,
		      "no line '%s...' in %s", want, UCLAMP_FILE);
}

static int nr_buckets(void)
{
	struct rq_clamp rc;

	read_rq(0, CL_MIN, &rc);
	return rc.nr;
}

/* The kernel's bucket of a clamp value: UCLAMP_BUCKET_DELTA, rounded. */
static int bucket_of(unsigned int value)
{
	int nr = nr_buckets();
	unsigned int delta = (SL_CAPACITY_SCALE + nr / 2) / nr;
	unsigned int b = value / delta;

	return b < (unsigned int)nr - 1 ? (int)b : nr - 1;
}

/* The capacity a cpu.uclamp.* percentage (in hundredths) stands for. */
static unsigned int util_of_pct100(unsigned int pct100)
{
	return ((pct100 << 10) + 5000) / 10000;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Wait until bucket @b of clamp @id on @cpu has @tasks tasks (and, if
 * @value >= 0, the rq clamp value is @value).  Returns 1 on success; on
 * timeout fills @rc with the last state seen and returns 0.
 */
static int wait_rq(int cpu, int id, int b, unsigned long tasks, long value,
		   struct rq_clamp *rc)
{
	long end = now_ms() + SETTLE_MS;

	do {
		read_rq(cpu, id, rc);
		if (rc->tasks[b] == tasks && (value < 0 || rc->value == value))
			return 1;
		usleep(5000);
	} while (now_ms() < end);
	return 0;
}

#define expect_rq(cpu, id, b, want_tasks, want_value) do {			\
	long _v = (want_value);							\
	struct rq_clamp _rc;							\
	int _ok = wait_rq(cpu, id, b, want_tasks, _v, &_rc);			\
	ck_assert_msg(_ok,							\
		      "CPU%d uclamp.%s: bucket %d has %lu task(s), rq value %u; " \
		      "expected %lu task(s)%s%ld within %d ms",			\
		      cpu, (id) == CL_MIN ? "min" : "max", b, _rc.tasks[b],	\
		      _rc.value, (unsigned long)(want_tasks),			\
		      _v < 0 ? "" : " and rq value ", _v, SETTLE_MS);		\
} while (0)

#define NO_VALUE (-1L)

/*
 * Wait until bucket @b of clamp @id on @cpu has @tasks tasks and its own
 * value (values[b] in the debugfs file, not the rq's) is @value.
 */
static void expect_bucket(int cpu, int id, int b, unsigned long tasks,
			  unsigned long value)
{
	long end = now_ms() + SETTLE_MS;
	struct rq_clamp rc;

	do {
		read_rq(cpu, id, &rc);
		if (rc.tasks[b] == tasks && rc.values[b] == value)
			return;
		usleep(5000);
	} while (now_ms() < end);
	ck_abort_msg("CPU%d uclamp.%s: bucket %d has %lu task(s) and value %lu; "
		     "expected %lu task(s) and bucket value %lu within %d ms",
		     cpu, id == CL_MIN ? "min" : "max", b, rc.tasks[b],
		     rc.values[b], tasks, value, SETTLE_MS);
}

/* ---- cgroups: one first-level group a clamp pair ------------------------ */

static void cg_write(const char *grp, const char *file, const char *val)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), CGROOT "/%s/%s", grp, file);
	ret = sl_write_str(path, val);
	ck_assert_msg(ret == 0, "writing '%s' to %s: error %d", val, path, ret);
}

/* Make group @grp with cpu.uclamp.min/max of @min100/@max100 hundredths of %. */
static void cg_make(const char *grp, unsigned int min100, unsigned int max100)
{
	char path[256], v[32];
	int ret;

	ret = sl_write_str(CGROOT "/cgroup.subtree_control", "+cpu");
	ck_assert_msg(ret == 0, "enabling the cpu controller: error %d", ret);
	snprintf(path, sizeof(path), CGROOT "/%s", grp);
	ck_assert_msg(!mkdir(path, 0755) || errno == EEXIST, "mkdir %s: %s",
		      path, strerror(errno));
	snprintf(v, sizeof(v), "%u.%02u", max100 / 100, max100 % 100);
	cg_write(grp, "cpu.uclamp.max", v);
	snprintf(v, sizeof(v), "%u.%02u", min100 / 100, min100 % 100);
	cg_write(grp, "cpu.uclamp.min", v);
}

static void cg_join(const char *grp, pid_t pid)
{
	char v[32];

	snprintf(v, sizeof(v), "%d", pid);
	cg_write(grp, "cgroup.procs", v);
}

/* ---- spinners -------------------------------------------------------------- */

static volatile sig_atomic_t spin;

static void on_signal(int sig)
{
	spin = sig == SIGUSR1;
}

static void spinner(void)
{
	sigset_t usr, old;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	for (;;) {
		sigprocmask(SIG_BLOCK, &usr, &old);
		while (!spin)
			sigsuspend(&old);
		sigprocmask(SIG_UNBLOCK, &usr, NULL);
		while (spin)
			;
	}
}

static int test_cpu(void)
{
	return sl_nr_cpus() - 1;
}

static char task_state(pid_t pid);

/*
 * A sleeping spinner in group @grp, pinned to the test CPU.  It returns
 * once the child sleeps: a child still on its way to sigsuspend() would be
 * RUNNABLE next to the next one spawned, and a bucket keeps the larger
 * value of its tasks for as long as any of them is RUNNABLE.
 */
static pid_t spawn(const char *grp)
{
	struct sigaction sa = { .sa_handler = on_signal };
	long end;
	pid_t pid;

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		spinner();
	ck_assert_int_eq(sl_pin(pid, test_cpu()), 0);
	cg_join(grp, pid);
	end = now_ms() + SETTLE_MS;
	while (task_state(pid) != 'S') {
		ck_assert_msg(now_ms() < end, "spinner %d never went to sleep", pid);
		usleep(5000);
	}
	return pid;
}

/* The state letter of /proc/PID/stat: R running/runnable, S sleeping. */
static char task_state(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] ? p[2] : '?';
}

/*
 * Signal @pid until it is in @state (the signal is sent again every
 * 100 ms: the spinner's protocol makes repeats harmless).
 */
static void signal_until(pid_t pid, int sig, char state)
{
	long end = now_ms() + SETTLE_MS;
	char seen;

	do {
		kill(pid, sig);
		for (int i = 0; i < 20; i++) {
			seen = task_state(pid);
			if (seen == state)
				return;
			usleep(5000);
		}
	} while (now_ms() < end);
	ck_abort_msg("task %d is in state %c, not %c, %d ms after %s",
		     pid, seen, state, SETTLE_MS, sig == SIGUSR1 ? "SIGUSR1 (spin)" : "SIGUSR2 (sleep)");
}

static void run(pid_t pid)
{
	signal_until(pid, SIGUSR1, 'R');
}

static void sleep_task(pid_t pid)
{
	signal_until(pid, SIGUSR2, 'S');
}

static void setup(void)
{
	ck_assert_int_eq(sl_pin(0, 0), 0);
	ck_assert_msg(sl_nr_cpus() > 1, "the lab needs two CPUs");
}

/* ---- tests ----------------------------------------------------------------- */

/* One RUNNABLE task refcounts its min and max buckets; the rq takes its values. */
START_TEST(test_enqueue_refcounts)
{
	int cpu = test_cpu();
	int bmin = bucket_of(util_of_pct100(2500)), bmax = bucket_of(util_of_pct100(7500));
	pid_t p;

	setup();
	cg_make("l4_enq", 2500, 7500);
	p = spawn("l4_enq");
	run(p);
	expect_rq(cpu, CL_MIN, bmin, 1, util_of_pct100(2500));
	expect_rq(cpu, CL_MAX, bmax, 1, util_of_pct100(7500));
	sl_reap(&p, 1);
}
END_TEST

/* A task that sleeps releases its buckets; waking up takes them again. */
START_TEST(test_sleep_dequeues)
{
	int cpu = test_cpu();
	int bmin = bucket_of(util_of_pct100(2500)), bmax = bucket_of(util_of_pct100(7500));
	pid_t p;

	setup();
	cg_make("l4_sleep", 2500, 7500);
	p = spawn("l4_sleep");
	run(p);
	expect_rq(cpu, CL_MIN, bmin, 1, util_of_pct100(2500));
	sleep_task(p);
	expect_rq(cpu, CL_MIN, bmin, 0, 0);
	expect_rq(cpu, CL_MAX, bmax, 0, NO_VALUE);
	run(p);
	expect_rq(cpu, CL_MIN, bmin, 1, util_of_pct100(2500));
	expect_rq(cpu, CL_MAX, bmax, 1, NO_VALUE);
	sl_reap(&p, 1);
}
END_TEST

/* A task that exits while RUNNABLE releases its buckets. */
START_TEST(test_exit_dequeues)
{
	int cpu = test_cpu();
	int bmin = bucket_of(util_of_pct100(5000)), bmax = bucket_of(util_of_pct100(5000));
	pid_t p[2];

	setup();
	cg_make("l4_exit", 5000, 5000);
	p[0] = spawn("l4_exit");
	p[1] = spawn("l4_exit");
	run(p[0]);
	run(p[1]);
	expect_rq(cpu, CL_MIN, bmin, 2, util_of_pct100(5000));
	expect_rq(cpu, CL_MAX, bmax, 2, NO_VALUE);
	sl_reap(&p[0], 1);
	expect_rq(cpu, CL_MIN, bmin, 1, util_of_pct100(5000));
	sl_reap(&p[1], 1);
	expect_rq(cpu, CL_MIN, bmin, 0, 0);
	expect_rq(cpu, CL_MAX, bmax, 0, NO_VALUE);
}
END_TEST

/*
 * Tasks in different buckets: the rq value is the max of the RUNNABLE tasks'
 * values, for util_min and for util_max, and drops back when the task that
 * set it leaves.
 */
START_TEST(test_max_aggregation_buckets)
{
	int cpu = test_cpu();
	unsigned int lo = util_of_pct100(2500), hi = util_of_pct100(5000);
	int blo = bucket_of(lo), bhi = bucket_of(hi);
	pid_t a, b;

	setup();
	ck_assert_msg(blo != bhi, "25%% and 50%% share bucket %d", blo);
	cg_make("l4_agg_lo", 2500, 2500);
	cg_make("l4_agg_hi", 5000, 5000);
	a = spawn("l4_agg_lo");
	b = spawn("l4_agg_hi");
	run(a);
	expect_rq(cpu, CL_MIN, blo, 1, lo);
	expect_rq(cpu, CL_MAX, blo, 1, NO_VALUE);
	run(b);
	expect_rq(cpu, CL_MIN, bhi, 1, hi);
	expect_rq(cpu, CL_MAX, bhi, 1, hi);
	sleep_task(b);
	expect_rq(cpu, CL_MIN, bhi, 0, lo);
	expect_rq(cpu, CL_MAX, bhi, 0, lo);
	sleep_task(a);
	expect_rq(cpu, CL_MIN, blo, 0, 0);
	sl_reap(&a, 1);
	sl_reap(&b, 1);
}
END_TEST

/*
 * An idle CPU keeps its last util_max (so that blocked utilization does not
 * raise the frequency), but the first task to wake there sets it afresh:
 * a 25% max after a 75% one must bring the rq down to 25%, not keep 75%.
 * (Kernel threads, max 1024, may wake there too; each time they leave,
 * the rq must come back to 25%, which the poll waits for.)
 */
START_TEST(test_idle_resets_max)
{
	int cpu = test_cpu();
	unsigned int hi = util_of_pct100(7500), lo = util_of_pct100(2500);
	int blo = bucket_of(lo);
	pid_t a, b;

	setup();
	cg_make("l4_idle_hi", 0, 7500);
	cg_make("l4_idle_lo", 0, 2500);
	a = spawn("l4_idle_hi");
	b = spawn("l4_idle_lo");
	run(a);
	expect_rq(cpu, CL_MAX, bucket_of(hi), 1, hi);
	sleep_task(a);
	run(b);
	expect_rq(cpu, CL_MAX, blo, 1, lo);
	sl_reap(&a, 1);
	sl_reap(&b, 1);
}
END_TEST

/*
 * The seed's example: a 25% task and a 30% task share a bucket.  The bucket
 * (and so the rq) takes the larger value, 30%, and keeps it while any of
 * its tasks is RUNNABLE (the 25% task is over-boosted); once the bucket is
 * empty, the next task sets the bucket's value to its own, 25%.  The
 * bucket's own value (values[] in debugfs) is checked besides the rq's:
 * the rq is raised to 30% even if the bucket wrongly keeps 25%.
 */
START_TEST(test_same_bucket_value)
{
	int cpu = test_cpu();
	unsigned int v25 = util_of_pct100(2500), v30 = util_of_pct100(3000);
	int bkt = bucket_of(v25);
	pid_t a, b;

	setup();
	ck_assert_msg(bkt == bucket_of(v30), "25%% and 30%% are not in one bucket");
	cg_make("l4_same25", 2500, 10000);
	cg_make("l4_same30", 3000, 10000);
	a = spawn("l4_same25");
	b = spawn("l4_same30");
	run(a);
	expect_rq(cpu, CL_MIN, bkt, 1, v25);
	expect_bucket(cpu, CL_MIN, bkt, 1, v25);
	run(b);
	expect_rq(cpu, CL_MIN, bkt, 2, v30);
	/* the bucket itself takes 30%, not only the rq */
	expect_bucket(cpu, CL_MIN, bkt, 2, v30);
	sleep_task(b);
	expect_rq(cpu, CL_MIN, bkt, 1, v30);
	expect_bucket(cpu, CL_MIN, bkt, 1, v30);
	sleep_task(a);
	expect_rq(cpu, CL_MIN, bkt, 0, 0);
	run(a);
	expect_rq(cpu, CL_MIN, bkt, 1, v25);
	expect_bucket(cpu, CL_MIN, bkt, 1, v25);
	sl_reap(&a, 1);
	sl_reap(&b, 1);
}
END_TEST

/*
 * CONFIG_UCLAMP_BUCKETS_COUNT buckets of SCHED_CAPACITY_SCALE/count each
 * (rounded): a task moved through the middle of every min bucket lands in
 * that bucket only, and 100% in the last one.
 */
START_TEST(test_buckets_count)
{
	int cpu = test_cpu(), nr = nr_buckets();
	unsigned int delta = (SL_CAPACITY_SCALE + nr / 2) / nr;
	pid_t p;

	setup();
	cg_make("l4_count", 0, 10000);
	p = spawn("l4_count");
	run(p);
	for (int k = 1; k <= nr; k++) {
		/* middle of bucket k, in hundredths of a percent; nr: 100% */
		unsigned int util = k < nr ? k * delta + delta / 2 : SL_CAPACITY_SCALE;
		unsigned int pct100 = util * 10000 / SL_CAPACITY_SCALE;
		int want = k < nr ? k : nr - 1;
		struct rq_clamp rc;
		char v[32];

		util = util_of_pct100(pct100);
		snprintf(v, sizeof(v), "%u.%02u", pct100 / 100, pct100 % 100);
		cg_write("l4_count", "cpu.uclamp.min", v);
		expect_rq(cpu, CL_MIN, want, 1, util);
		read_rq(cpu, CL_MIN, &rc);
		for (int b = 1; b < nr; b++)
			ck_assert_msg(b == want || rc.tasks[b] == 0,
				      "util_min %u (%s%%): bucket %d has %lu task(s); with %d buckets only bucket %d should",
				      util, v, b, rc.tasks[b], nr, want);
	}
	sl_reap(&p, 1);
}
END_TEST

/*
 * A storm of short-lived clamped tasks on every CPU (forked, woken, moved
 * by the load balancer, sleeping briefly, exiting): once all are gone, no
 * bucket they used holds a task and no rq keeps their util_min.  A spinner
 * of the same group, counted before the storm, checks the buckets are used.
 */
#define STORM 120
START_TEST(test_storm_no_leak)
{
	unsigned int v = util_of_pct100(4000);
	int b = bucket_of(v);
	pid_t pids[STORM], anchor;

	setup();
	cg_make("l4_storm", 4000, 4000);
	anchor = spawn("l4_storm");
	run(anchor);
	expect_rq(test_cpu(), CL_MIN, b, 1, v);
	cg_join("l4_storm", getpid());
	for (int i = 0; i < STORM; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0) {
			cpu_set_t all;

			CPU_ZERO(&all);
			for (int c = 0; c < sl_nr_cpus(); c++)
				CPU_SET(c, &all);
			sched_setaffinity(0, sizeof(all), &all);
			for (int j = 0; j < 3; j++) {
				for (volatile int k = 0; k < 20000; k++)
					;
				usleep(200);
			}
			_exit(0);
		}
	}
	for (int i = 0; i < STORM; i++)
		waitpid(pids[i], NULL, 0);
	sl_reap(&anchor, 1);
	cg_join("", getpid());		/* back to the root group */
	for (int cpu = 0; cpu < sl_nr_cpus(); cpu++) {
		expect_rq(cpu, CL_MAX, b, 0, NO_VALUE);
		if (cpu != 0)	/* CPU 0 runs this test: its rq value is ours */
			expect_rq(cpu, CL_MIN, b, 0, 0);
		else
			expect_rq(cpu, CL_MIN, b, 0, NO_VALUE);
	}
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab04", NULL, NULL);

	sl_add_test(s, test_enqueue_refcounts);
	sl_add_test(s, test_sleep_dequeues);
	sl_add_test(s, test_exit_dequeues);
	sl_add_test(s, test_max_aggregation_buckets);
	sl_add_test(s, test_same_bucket_value);
	sl_add_test(s, test_idle_resets_max);
	sl_add_test(s, test_buckets_count);
	sl_add_test(s, test_storm_no_leak);
	return s;
}
