// SPDX-License-Identifier: GPL-2.0
/* schedlab.c - helpers and the Check runner every lab's tests link with. */
#include "schedlab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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

unsigned long sl_cpu_capacity(int cpu)
{
	char path[80];
	long v;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	v = sl_read_long(path);
	ck_assert_msg(v > 0, "cannot read %s", path);
	return v;
}

unsigned long sl_max_capacity(void)
{
	unsigned long m = 0;

	for (int i = 0; i < sl_nr_cpus(); i++)
		if (sl_cpu_capacity(i) > m)
			m = sl_cpu_capacity(i);
	return m;
}

unsigned long sl_min_capacity(void)
{
	unsigned long m = ~0UL;

	for (int i = 0; i < sl_nr_cpus(); i++)
		if (sl_cpu_capacity(i) < m)
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
	char path[64], line[256];
	size_t len = strlen(key);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	ck_assert_msg(f, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		/* "key   : value", the key alone before the padding */
		if (!strncmp(line, key, len) && colon &&
		    strspn(line + len, " ") == (size_t)(colon - line - len)) {
			sscanf(colon + 1, "%ld", &v);
			break;
		}
	}
	fclose(f);
	ck_assert_msg(v >= 0, "no '%s' in %s", key, path);
	return v;
}

int sl_pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set) ? -errno : 0;
}

long sl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int sl_proc_stat_field(pid_t pid, int field, char *buf, size_t len)
{
	char path[64], line[1024], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = 0;
	/* The command name (field 2) may hold spaces: count from its ')'. */
	p = strrchr(line, ')');
	if (!p || field < 3)
		return -1;
	p++;
	for (int i = 3; i <= field; i++) {
		if (*p != ' ')
			return -1;
		p++;
		if (i < field)
			p += strcspn(p, " ");
	}
	n = strcspn(p, " \n");
	if (!n || n >= len)
		return -1;
	memcpy(buf, p, n);
	buf[n] = 0;
	return 0;
}

char sl_task_state(pid_t pid)
{
	char state[4];

	return sl_proc_stat_field(pid, 3, state, sizeof(state)) ? '?' : state[0];
}

long sl_voluntary_switches(pid_t pid)
{
	char path[64], line[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

#define SL_CGROOT "/sys/fs/cgroup"

static void cg_path(char *path, size_t len, const char *grp, const char *file)
{
	snprintf(path, len, SL_CGROOT "%s%s%s%s", *grp ? "/" : "", grp,
		 file ? "/" : "", file ? file : "");
}

void sl_cg_write(const char *grp, const char *file, const char *val)
{
	char path[256];
	int ret;

	cg_path(path, sizeof(path), grp, file);
	ret = sl_write_str(path, val);
	ck_assert_msg(ret == 0, "writing '%s' to %s: error %d", val, path, ret);
}

char *sl_cg_read(const char *grp, const char *file, char *buf, size_t len)
{
	char path[256];
	FILE *f;

	cg_path(path, sizeof(path), grp, file);
	f = fopen(path, "r");
	ck_assert_msg(f, "cannot open %s", path);
	ck_assert_msg(fgets(buf, len, f), "cannot read %s", path);
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

void sl_cg_mkdir(const char *grp)
{
	char path[256];

	cg_path(path, sizeof(path), grp, NULL);
	ck_assert_msg(!mkdir(path, 0755) || errno == EEXIST, "mkdir %s: %s",
		      path, strerror(errno));
}

void sl_cg_enable(const char *grp, const char *ctrl)
{
	char v[32];

	snprintf(v, sizeof(v), "+%s", ctrl);
	sl_cg_write(grp, "cgroup.subtree_control", v);
}

void sl_cg_join(const char *grp, pid_t pid)
{
	char v[32];

	snprintf(v, sizeof(v), "%d", pid);
	sl_cg_write(grp, "cgroup.procs", v);
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

/* Wait until @pid sleeps: its state is S and it switched out since @nvcsw. */
static void await_sleep(pid_t pid, long nvcsw, const char *after)
{
	long end = sl_now_ms() + SL_SETTLE_MS;
	char seen;

	for (;;) {
		seen = sl_task_state(pid);
		if (seen == 'S' && sl_voluntary_switches(pid) > nvcsw)
			return;
		if (sl_now_ms() > end)
			break;
		usleep(1000);
	}
	ck_abort_msg("spinner %d is in state %c, not asleep, %d ms after %s",
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
	await_sleep(pid, 0, "it was forked");
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
		usleep(1000);
	}
}

void sl_rest(pid_t pid)
{
	long nvcsw = sl_voluntary_switches(pid);

	kill(pid, SIGUSR2);
	await_sleep(pid, nvcsw, "SIGUSR2 (sleep)");
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

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * Every test (or only CK_RUN_CASE's, as Check itself does), one at a time,
 * each followed by its duration on the guest's monotonic clock.  Check's
 * log (to standard output, "-") prints each test's verbose result line as
 * the test ends; its own verbose report would repeat every earlier test's
 * result after each run.
 */
int main(void)
{
	SRunner *sr = srunner_create(lab_suite());
	const char *only = getenv("CK_RUN_CASE");
	int failed = 0, ran = 0;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_set_log(sr, "-");
	for (int i = 0; i < nr_tests; i++) {
		long long t0;

		if (only && *only && strcmp(only, test_names[i]))
			continue;
		t0 = now_us();
		srunner_run(sr, suite_fixture.name, test_names[i], CK_SILENT);
		fflush(stdout);
		printf("TIME %s %lld\n", test_names[i], now_us() - t0);
		fflush(stdout);
		ran++;
	}
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (!ran)
		fprintf(stderr, "schedlab: no test named '%s'\n", only);
	return failed || !ran ? EXIT_FAILURE : EXIT_SUCCESS;
}
