// SPDX-License-Identifier: GPL-2.0
/* busy.c - see busy.h. */
#include "busy.h"
#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void child_fail(int fd, struct busy_result *res, const char *step,
		       int err)
{
	res->err = err ? err : -1;
	snprintf(res->step, sizeof(res->step), "%s", step);
	if (fd >= 0 && write(fd, res, sizeof(*res)) != sizeof(*res))
		_exit(2);
	_exit(1);
}

/* Become a busy SCHED_DEADLINE task that starts on @cpu. */
static void become_busy(int cpu, int fd, struct busy_result *res)
{
	cpu_set_t all;
	int ret;

	ret = sl_pin(0, cpu);
	if (ret)
		child_fail(fd, res, "pinning to the start CPU", ret);
	if (sched_getcpu() != cpu)
		child_fail(fd, res, "running on the start CPU", -EAGAIN);
	/*
	 * SCHED_FIFO until we are SCHED_DEADLINE: with a wide affinity, a
	 * fair task could be moved by the load balancer (misfit or idle
	 * balance) before sched_setattr(); a running RT task is not.
	 */
	if (sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 }))
		child_fail(fd, res, "becoming SCHED_FIFO", -errno);
	CPU_ZERO(&all);
	for (int i = 0; i < sl_nr_cpus(); i++)
		CPU_SET(i, &all);
	if (sched_setaffinity(0, sizeof(all), &all))
		child_fail(fd, res, "widening the affinity", -errno);
	ret = sl_set_dl(0, BUSY_RUNTIME, BUSY_DEADLINE, BUSY_PERIOD);
	if (ret)
		child_fail(fd, res, "sched_setattr(SCHED_DEADLINE)", ret);
	res->start = sched_getcpu();
}

void busy_observe(int cpu, int ms, struct busy_result *res)
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
		struct busy_result r = { 0 };
		double t0, last, t;
		int here;

		close(fds[0]);
		become_busy(cpu, fds[1], &r);
		here = r.start;
		t0 = last = now_ms();
		/* Never blocks: clock_gettime() is the vDSO, getcpu() does not sleep. */
		while ((t = now_ms()) - t0 < ms) {
			int c = sched_getcpu();

			if (t - last > 10)
				r.throttles++;
			last = t;
			if (c != here && r.n < BUSY_MAX_CHANGES) {
				r.change[r.n].ms = t - t0;
				r.change[r.n].from = here;
				r.change[r.n].to = c;
				r.n++;
			}
			here = c;
		}
		if (write(fds[1], &r, sizeof(r)) != sizeof(r))
			_exit(2);
		_exit(0);
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
	ck_assert_msg(res->start == cpu,
		      "the task was meant to start on CPU %d but ran on CPU %d right after sched_setattr()",
		      cpu, res->start);
}

pid_t busy_spawn(int cpu)
{
	int fds[2];
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct busy_result r = { 0 };

		close(fds[0]);
		become_busy(cpu, -1, &r);
		if (r.start != cpu)
			_exit(1);
		/* Tell the parent we are a -deadline task now, then spin. */
		if (write(fds[1], "x", 1) != 1)
			_exit(2);
		close(fds[1]);
		for (;;)
			;
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		waitpid(pid, NULL, 0);
		ck_abort_msg("the busy child could not become SCHED_DEADLINE on CPU %d",
			     cpu);
	}
	close(fds[0]);
	return pid;
}

int busy_task_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int cpu = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	/* The command name may hold spaces: count fields after its ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* p + 2 is field 3 (state); field 39 is 36 fields further. */
	p += 2;
	for (int field = 3; field < 39 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (p)
		sscanf(p, "%d", &cpu);
	return cpu;
}

unsigned long busy_demand(void)
{
	return ((BUSY_RUNTIME << 20) / BUSY_DEADLINE) >> 10;
}

int busy_slowest_cpu(void)
{
	int best = 0;

	for (int i = 1; i < sl_nr_cpus(); i++)
		if (sl_cpu_capacity(i) < sl_cpu_capacity(best))
			best = i;
	return best;
}
