// SPDX-License-Identifier: GPL-2.0
/* schedlab.c - helpers and the Check runner every lab's tests link with. */
#include "schedlab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

#define SL_MAX_TESTS 64

static struct {
	const char *name;
	SFun setup, teardown;
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
