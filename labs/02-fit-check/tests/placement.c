// SPDX-License-Identifier: GPL-2.0
/* placement.c - see placement.h. */
#include "placement.h"
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CGROOT "/sys/fs/cgroup"

static void child_fail(int fd, struct pl_result *res, const char *step, int err)
{
	res->err = err ? err : -1;
	snprintf(res->step, sizeof(res->step), "%s", step);
	if (write(fd, res, sizeof(*res)) != sizeof(*res))
		_exit(2);
	_exit(1);
}

static void child(const struct pl_spec *spec, int fd)
{
	struct pl_result res = { 0 };
	cpu_set_t all;
	char path[128];
	int ret;

	if (spec->cgroup) {
		/*
		 * Join the partition ourselves, while running: a sleeping
		 * task moved there keeps its old runqueue until it wakes,
		 * and 6.1 then refuses SCHED_DEADLINE with EPERM.
		 */
		snprintf(path, sizeof(path), CGROOT "/%s/cgroup.procs",
			 spec->cgroup);
		ret = sl_write_str(path, "0");
		if (ret)
			child_fail(fd, &res, "joining the cpuset partition", ret);
	}
	ret = sl_pin(0, spec->start_cpu);
	if (ret)
		child_fail(fd, &res, "pinning to the start CPU", ret);
	/* sched_setaffinity() migrates us before it returns. */
	if (sched_getcpu() != spec->start_cpu)
		child_fail(fd, &res, "running on the start CPU", -EAGAIN);
	/*
	 * SCHED_FIFO until we are SCHED_DEADLINE: with a wide affinity, a
	 * fair task could be moved by the load balancer (misfit or idle
	 * balance) before sched_setattr(); a running RT task is not.
	 */
	if (sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 }))
		child_fail(fd, &res, "becoming SCHED_FIFO", -errno);
	/*
	 * sched_setattr(SCHED_DEADLINE) fails with EPERM while the affinity
	 * is smaller than the root domain, so widen it again (the cpuset,
	 * if any, still restricts it to the partition); we stay where we
	 * run.
	 */
	CPU_ZERO(&all);
	for (int i = 0; i < sl_nr_cpus(); i++)
		CPU_SET(i, &all);
	if (sched_setaffinity(0, sizeof(all), &all))
		child_fail(fd, &res, "widening the affinity", -errno);
	ret = sl_set_dl(0, spec->runtime, spec->deadline, spec->period);
	if (ret)
		child_fail(fd, &res, "sched_setattr(SCHED_DEADLINE)", ret);
	res.start = sched_getcpu();
	for (int i = 0; i < spec->wakeups && i < PL_MAX_WAKEUPS; i++) {
		usleep(spec->sleep_us);
		res.cpu[res.n++] = sched_getcpu();
	}
	if (write(fd, &res, sizeof(res)) != sizeof(res))
		_exit(2);
	_exit(0);
}

void pl_run(const struct pl_spec *spec, struct pl_result *res)
{
	int fds[2], status, traced;
	ssize_t got;
	pid_t pid;

	/* Where the task ran goes into the report's timeline. */
	traced = sl_trace_start() == 0;
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		child(spec, fds[1]);
	}
	close(fds[1]);
	memset(res, 0, sizeof(*res));
	got = read(fds[0], res, sizeof(*res));
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (traced)
		sl_trace_dump(tcase_name(), &pid, 1);
	ck_assert_msg(got == sizeof(*res), "the test child died without reporting (status 0x%x)",
		      status);
	ck_assert_msg(res->err == 0, "test setup failed while %s: error %d (%s)",
		      res->step, res->err, strerror(-res->err));
	ck_assert_msg(res->start == spec->start_cpu,
		      "the task was meant to start on CPU %d but ran on CPU %d right after sched_setattr()",
		      spec->start_cpu, res->start);
}

void pl_remove_partition(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), CGROOT "/%s/cpuset.cpus.partition", name);
	sl_write_str(path, "member");
	snprintf(path, sizeof(path), CGROOT "/%s", name);
	rmdir(path);
}

void pl_make_partition(const char *name, const char *cpus)
{
	char path[128], buf[64] = "";
	FILE *f;
	int ret;

	pl_remove_partition(name);	/* left over by a failed test */
	ret = sl_write_str(CGROOT "/cgroup.subtree_control", "+cpuset");
	ck_assert_msg(ret == 0, "enabling the cpuset controller: %s", strerror(-ret));
	snprintf(path, sizeof(path), CGROOT "/%s", name);
	ck_assert_msg(mkdir(path, 0755) == 0, "mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), CGROOT "/%s/cpuset.cpus", name);
	ret = sl_write_str(path, cpus);
	ck_assert_msg(ret == 0, "writing %s to %s: %s", cpus, path, strerror(-ret));
	snprintf(path, sizeof(path), CGROOT "/%s/cpuset.cpus.partition", name);
	ret = sl_write_str(path, "root");
	ck_assert_msg(ret == 0, "making %s a partition root: %s", name, strerror(-ret));
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	ck_assert_msg(!strncmp(buf, "root", 4) && buf[4] == '\n',
		      "%s reads \"%s\", expected \"root\"", path, buf);
}

int pl_slowest_cpu(void)
{
	int best = 0;

	for (int i = 1; i < sl_nr_cpus(); i++)
		if (sl_cpu_capacity(i) < sl_cpu_capacity(best))
			best = i;
	return best;
}

int pl_fastest_cpu(void)
{
	int best = sl_nr_cpus() - 1;

	for (int i = best - 1; i >= 0; i--)
		if (sl_cpu_capacity(i) > sl_cpu_capacity(best))
			best = i;
	return best;
}

unsigned long pl_demand(uint64_t runtime, uint64_t deadline)
{
	/* The kernel's dl_density >> (BW_SHIFT - SCHED_CAPACITY_SHIFT). */
	return ((runtime << 20) / deadline) >> 10;
}
