// SPDX-License-Identifier: GPL-2.0
/* schedlab.c - helpers and the Check runner every lab's tests link with. */
#include "schedlab.h"
#include "cgroup.h"
#include "task.h"

#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int sl_setattr(pid_t pid, struct sl_attr *attr, unsigned int flags)
{
	return syscall(SYS_sched_setattr, pid, attr, flags) ? -errno : 0;
}

int sl_getattr(pid_t pid, struct sl_attr *attr, unsigned int size)
{
	return syscall(SYS_sched_getattr, pid, attr, size, 0) ? -errno : 0;
}

int sl_set_dl(pid_t pid, uint64_t runtime, uint64_t deadline, uint64_t period)
{
	struct sl_attr a = {
		.size = SL_ATTR_SIZE_VER0,
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = runtime,
		.sched_deadline = deadline,
		.sched_period = period,
	};

	return sl_setattr(pid, &a, 0);
}

int sl_set_other(pid_t pid)
{
	struct sl_attr a = { .size = SL_ATTR_SIZE_VER0, .sched_policy = SCHED_OTHER };

	return sl_setattr(pid, &a, 0);
}

int sl_set_policy(pid_t pid, int policy, int prio, uint64_t flags)
{
	struct sl_attr a = { .size = SL_ATTR_SIZE_VER0, .sched_policy = policy,
			     .sched_priority = prio, .sched_flags = flags };

	return sl_setattr(pid, &a, 0);
}

long sl_read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int sl_write_str(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fputs(val, f) < 0 ? -errno : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int sl_nr_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * A CPU's capacity is set once at boot (the device tree's, with no cpufreq
 * driver in the guest to rescale it), so each process reads it once: a
 * sysfs read costs about a millisecond under emulation.
 */
unsigned long sl_cpu_capacity(int cpu)
{
	static unsigned long cap[SL_MAX_CPUS];
	char path[80];
	long v;

	ck_assert_msg(cpu >= 0 && cpu < SL_MAX_CPUS, "no CPU %d", cpu);
	if (cap[cpu])
		return cap[cpu];
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	v = sl_read_long(path);
	ck_assert_msg(v > 0, "cannot read %s", path);
	cap[cpu] = v;
	return v;
}

unsigned long sl_max_capacity(void)
{
	unsigned long m = 0;
	int n = sl_nr_cpus();

	for (int i = 0; i < n; i++)
		if (sl_cpu_capacity(i) > m)
			m = sl_cpu_capacity(i);
	return m;
}

long sl_rt_runtime_us(void)
{
	return sl_read_long("/proc/sys/kernel/sched_rt_runtime_us");
}

long sl_rt_period_us(void)
{
	return sl_read_long("/proc/sys/kernel/sched_rt_period_us");
}

int sl_spawn_sleepers(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return -errno;
		if (pids[i] == 0) {
			/* Never outlive the test, even when it fails early. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
	}
	/*
	 * Until a child sleeps it is queued, and /proc/PID/sched shows the
	 * clamps it was queued with, not those a test gave it since.
	 */
	for (int i = 0; i < n; i++)
		sl_wait_asleep(pids[i], 0, "it was forked");
	return 0;
}

void sl_reap(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
			pids[i] = 0;
		}
	}
}

long sl_proc_sched(pid_t pid, const char *key)
{
	long long v = -1;
	int ret = sl_proc_sched_read(pid, key, &v);

	ck_assert_msg(ret == 0 && v >= 0, "no '%s' in /proc/%d/sched (%s)", key, pid,
		      strerror(-ret));
	return v;
}

long sl_cpu_switches(int cpu)
{
	FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
	char line[256];
	long v = -1;
	int in = 0, n;

	/* "cpu#N" heads a CPU's section; "  .nr_switches    : V" is in it. */
	while (f && v < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu#%d", &n) == 1)
			in = n == cpu;
		else if (in)
			sscanf(line, " .nr_switches : %ld", &v);
	}
	if (f)
		fclose(f);
	ck_assert_msg(v >= 0, "no .nr_switches of cpu#%d in /sys/kernel/debug/sched/debug", cpu);
	return v;
}

int sl_pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set) ? -errno : 0;
}

int sl_unpin(pid_t pid)
{
	cpu_set_t all;

	memset(&all, 0xff, sizeof(all));
	return sched_setaffinity(pid, sizeof(all), &all) ? -errno : 0;
}

/*
 * The spinner's protocol: SIGUSR1 spins, SIGUSR2 sleeps; repeats are
 * harmless.  Each time it starts spinning, a spinner counts it in its slot
 * of a page shared with the test: it runs, so it is enqueued.  (The state
 * letter of /proc/PID/stat cannot say so: a task being woken onto another
 * CPU is TASK_WAKING, which /proc shows as R before it is enqueued.)
 */
#define SL_SPINNERS 64
static struct spinner_slot {
	pid_t pid;
	volatile unsigned int spins;
} *spinner_slots;
static volatile sig_atomic_t spin;

static void on_spin_signal(int sig)
{
	spin = sig == SIGUSR1;
}

static void spinner(struct spinner_slot *slot)
{
	struct sigaction sa = { .sa_handler = on_spin_signal };
	sigset_t usr, old;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	sigprocmask(SIG_UNBLOCK, &usr, NULL);
	for (;;) {
		sigprocmask(SIG_BLOCK, &usr, &old);
		while (!spin)
			sigsuspend(&old);
		sigprocmask(SIG_UNBLOCK, &usr, NULL);
		__atomic_add_fetch(&slot->spins, 1, __ATOMIC_SEQ_CST);
		while (spin)
			;
	}
}

static struct spinner_slot *spinner_slot(pid_t pid)
{
	for (int i = 0; spinner_slots && i < SL_SPINNERS; i++)
		if (spinner_slots[i].pid == pid)
			return &spinner_slots[i];
	ck_abort_msg("%d is not a spinner", pid);
	return NULL;
}

void sl_wait_asleep(pid_t pid, long nvcsw, const char *after)
{
	long end = sl_now_ms() + SL_SETTLE_MS;
	char seen;

	for (;;) {
		seen = sl_task_state(pid);
		if (seen == 'S' && sl_voluntary_switches(pid) > nvcsw)
			return;
		if (sl_now_ms() > end)
			break;
		usleep(SL_POLL_US);
	}
	ck_abort_msg("task %d is in state %c, not asleep, %d ms after %s",
		     pid, seen, SL_SETTLE_MS, after);
}

pid_t sl_spawn_spinner(int cpu, const char *grp)
{
	struct spinner_slot *slot = NULL;
	sigset_t usr, old;
	pid_t pid;

	if (!spinner_slots) {
		spinner_slots = mmap(NULL, SL_SPINNERS * sizeof(*spinner_slots),
				     PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		ck_assert_msg(spinner_slots != MAP_FAILED, "mmap: %s", strerror(errno));
	}
	for (int i = 0; i < SL_SPINNERS && !slot; i++)
		if (!spinner_slots[i].pid)
			slot = &spinner_slots[i];
	ck_assert_msg(slot, "more than %d spinners", SL_SPINNERS);
	slot->spins = 0;
	/* Signals stay blocked until the child has its handlers. */
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr, &old);
	pid = fork();
	if (pid == 0)
		spinner(slot);
	sigprocmask(SIG_SETMASK, &old, NULL);
	ck_assert_msg(pid > 0, "fork: %s", strerror(errno));
	slot->pid = pid;
	/* Group first: moving into a cpuset (once some lab enabled it) resets the affinity. */
	if (grp)
		sl_cg_join(grp, pid);
	ck_assert_int_eq(sl_pin(pid, cpu), 0);
	sl_wait_asleep(pid, 0, "it was forked");
	return pid;
}

void sl_spin(pid_t pid)
{
	struct spinner_slot *slot = spinner_slot(pid);
	unsigned int spins = slot->spins;
	long end = sl_now_ms() + SL_SETTLE_MS;

	kill(pid, SIGUSR1);
	while (slot->spins == spins) {
		ck_assert_msg(sl_now_ms() < end, "spinner %d (state %c) not running %d ms after SIGUSR1",
			      pid, sl_task_state(pid), SL_SETTLE_MS);
		usleep(SL_POLL_US);
	}
}

void sl_rest(pid_t pid)
{
	long nvcsw = sl_voluntary_switches(pid);

	kill(pid, SIGUSR2);
	sl_wait_asleep(pid, nvcsw, "SIGUSR2 (sleep)");
}

#define SL_MAX_TESTS 64

static struct {
	const char *name;
	SFun setup, teardown, cleanup;
} suite_fixture;
static const char *test_names[SL_MAX_TESTS];
static int nr_tests;

Suite *sl_suite(const char *name, SFun setup, SFun teardown)
{
	suite_fixture.name = name;
	suite_fixture.setup = setup;
	suite_fixture.teardown = teardown;
	return suite_create(name);
}

void sl_suite_cleanup(SFun cleanup)
{
	suite_fixture.cleanup = cleanup;
}

void sl_add_tcase(Suite *s, const TTest *fn, const char *name)
{
	TCase *tc = tcase_create(name);

	if (nr_tests == SL_MAX_TESTS) {
		fprintf(stderr, "schedlab: more than %d tests\n", SL_MAX_TESTS);
		exit(2);
	}
	if (suite_fixture.setup || suite_fixture.teardown)
		tcase_add_checked_fixture(tc, suite_fixture.setup,
					  suite_fixture.teardown);
	if (suite_fixture.cleanup)
		tcase_add_unchecked_fixture(tc, NULL, suite_fixture.cleanup);
	tcase_add_test(tc, fn);
	suite_add_tcase(s, tc);
	test_names[nr_tests++] = name;
}

static unsigned int seed, rand_state;

unsigned int sl_seed(void)
{
	const char *env = getenv("SCHEDLAB_SEED");

	if (!seed) {
		seed = env && *env ? strtoul(env, NULL, 10) : (unsigned int)(sl_now_us() % 1000000000);
		seed = seed ? seed : 1;
		rand_state = seed;
		/* in the results log, for a failure found after the test (a splat, a leak) */
		printf("SEED %u\n", seed);
		fflush(stdout);
	}
	return seed;
}

/* xorshift32: the same numbers for a seed on every machine */
unsigned int sl_rand(unsigned int n)
{
	sl_seed();
	rand_state ^= rand_state << 13;
	rand_state ^= rand_state >> 17;
	rand_state ^= rand_state << 5;
	return n ? rand_state % n : 0;
}

#define STEPS_KEPT	6
static char steps[STEPS_KEPT][160];
static int nr_steps;

void sl_step(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(steps[nr_steps % STEPS_KEPT], sizeof(steps[0]), fmt, ap);
	va_end(ap);
	printf("step %d: %s\n", nr_steps + 1, steps[nr_steps % STEPS_KEPT]);
	fflush(stdout);
	nr_steps++;
}

int sl_nr_steps(void)
{
	return nr_steps;
}

const char *sl_scenario(const char *test)
{
	static char buf[STEPS_KEPT * 170 + 160];
	size_t n;
	int first = nr_steps > STEPS_KEPT ? nr_steps - STEPS_KEPT : 0;

	n = snprintf(buf, sizeof(buf),
		     "seed %u; replay it with: make grade LAB=%d TEST=%s SEED=%u; the last steps:",
		     sl_seed(), atoi(suite_fixture.name + 3), test, sl_seed());
	if (!nr_steps)
		snprintf(buf + n, sizeof(buf) - n, " none (before the first)");
	for (int i = first; i < nr_steps && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s %d: %s", i > first ? ";" : "", i + 1,
			      steps[i % STEPS_KEPT]);
	return buf;
}

/*
 * Whether the test that ran last could not decide on this machine: it
 * failed with a message that starts "inconclusive:" (grader/parse.c).
 */
static int last_inconclusive(SRunner *sr)
{
	TestResult **r = srunner_results(sr);
	int n = srunner_ntests_run(sr), undecided;

	undecided = n > 0 && tr_rtype(r[n - 1]) != CK_PASS &&
		    !strncmp(tr_msg(r[n - 1]), "inconclusive:", strlen("inconclusive:"));
	free(r);
	return undecided;
}

/*
 * Every test (or only CK_RUN_CASE's, as Check itself does), one at a time,
 * each followed by its duration on the guest's monotonic clock.  Check's
 * log (to standard output, "-") prints each test's verbose result line as
 * the test ends; its own verbose report would repeat every earlier test's
 * result after each run.  In a boot shared with other labs
 * (SCHEDLAB_SHARED, set by the init), a test that could not decide ends
 * the suite: the grader boots the lab again alone and runs every test
 * there, so the rest would only cost time here.
 */
int main(void)
{
	SRunner *sr = srunner_create(lab_suite());
	const char *only = getenv("CK_RUN_CASE"), *shared = getenv("SCHEDLAB_SHARED");
	int failed = 0, ran = 0;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_set_log(sr, "-");
	for (int i = 0; i < nr_tests; i++) {
		long long t0;

		if (only && *only && strcmp(only, test_names[i]))
			continue;
		t0 = sl_now_us();
		srunner_run(sr, suite_fixture.name, test_names[i], CK_SILENT);
		fflush(stdout);
		printf("TIME %s %lld\n", test_names[i], sl_now_us() - t0);
		fflush(stdout);
		ran++;
		if (shared && *shared && last_inconclusive(sr))
			break;
	}
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (!ran)
		fprintf(stderr, "schedlab: no test named '%s'\n", only);
	return failed || !ran ? EXIT_FAILURE : EXIT_SUCCESS;
}
