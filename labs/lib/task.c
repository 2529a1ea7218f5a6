// SPDX-License-Identifier: GPL-2.0
/* task.c - test children, clocks, /proc/PID/stat; see task.h. */
#include "task.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* In a child: where its result goes, and the result itself. */
static int child_fd = -1;
static void *child_res;
static size_t child_size;

/* A child's messages: 'R' (ready), then 'D' and the result. */
static void child_send_result(void)
{
	char done = 'D';

	if (write(child_fd, &done, 1) != 1 ||
	    write(child_fd, child_res, child_size) != (ssize_t)child_size)
		_exit(2);
}

void sl_child_fail(const char *step, int err)
{
	struct sl_report *r = child_res;

	r->err = err ? err : -EIO;
	snprintf(r->step, sizeof(r->step), "%s", step);
	child_send_result();
	_exit(1);
}

void sl_child_ready(void)
{
	char ready = 'R';

	if (write(child_fd, &ready, 1) != 1)
		_exit(2);
}

void sl_child_start(struct sl_child *c, sl_child_fn fn, const void *arg,
		    size_t size)
{
	int fds[2];

	ck_assert_msg(size >= sizeof(struct sl_report), "a child's result starts with struct sl_report");
	ck_assert_msg(pipe(fds) == 0, "pipe: %s", strerror(errno));
	fflush(NULL);
	c->size = size;
	c->fd = fds[0];
	c->pid = fork();
	ck_assert_msg(c->pid >= 0, "fork: %s", strerror(errno));
	if (c->pid == 0) {
		/* Never outlive the test, even when it fails early. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(fds[0]);
		child_fd = fds[1];
		child_size = size;
		child_res = calloc(1, size);
		if (!child_res)
			_exit(2);
		fn(arg, child_res);
		child_send_result();
		_exit(0);
	}
	close(fds[1]);
}

/* The child's next message: 'R', 'D' (with the result in @res) or 0. */
static char child_message(struct sl_child *c, void *res)
{
	char kind = 0;

	if (read(c->fd, &kind, 1) != 1)
		return 0;
	if (kind == 'D' && read(c->fd, res, c->size) != (ssize_t)c->size)
		return 0;
	return kind;
}

static void reap(struct sl_child *c, int *status)
{
	*status = 0;
	if (c->pid > 0)
		waitpid(c->pid, status, 0);
	c->pid = 0;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* The child ended: fail the test if it reported a failed step or nothing. */
static void check_ended(struct sl_child *c, char kind, struct sl_report *r)
{
	pid_t pid = c->pid;
	int status;

	reap(c, &status);
	ck_assert_msg(kind == 'D', "test child %d died without reporting (status 0x%x)",
		      pid, status);
	ck_assert_msg(r->err == 0, "test setup failed while %s: error %d (%s)",
		      r->step, r->err, strerror(-r->err));
}

void sl_child_wait_ready(struct sl_child *c)
{
	struct sl_report *r = calloc(1, c->size);
	char kind;

	ck_assert(r != NULL);
	kind = child_message(c, r);
	if (kind == 'R') {
		free(r);
		return;
	}
	check_ended(c, kind, r);
	ck_abort_msg("test child %d ended before it was ready", c->pid);
}

void sl_child_wait(struct sl_child *c, void *res)
{
	char kind;

	memset(res, 0, c->size);
	while ((kind = child_message(c, res)) == 'R')
		;
	check_ended(c, kind, res);
}

void sl_child_kill(struct sl_child *c)
{
	int status;

	if (c->pid > 0)
		kill(c->pid, SIGKILL);
	reap(c, &status);
}

long long sl_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

double sl_now_ms(void)
{
	return sl_now_us() / 1e3;
}

int sl_proc_stat(pid_t pid, int field, char *buf, size_t len)
{
	char path[64], line[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = 0;
	/* Field 2, the command name, may hold spaces: count after its ')'. */
	p = strrchr(line, ')');
	if (!p || field < 3)
		return -EINVAL;
	p++;		/* the space before field 3 */
	for (int i = 3; i < field && p; i++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -EINVAL;
	p++;
	n = strcspn(p, " \n");
	if (n >= len)
		return -ENOSPC;
	memcpy(buf, p, n);
	buf[n] = 0;
	return 0;
}

int sl_task_cpu(pid_t pid)
{
	char buf[16];

	return sl_proc_stat(pid, 39, buf, sizeof(buf)) ? -1 : atoi(buf);
}

int sl_proc_sched_fields(pid_t pid, const char *const *keys, long long *vals, int n)
{
	char path[64], line[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (found < n && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		for (int i = 0; i < n && colon; i++) {
			size_t len = strlen(keys[i]);

			/* "key   : value", the key alone before the padding */
			if (!strncmp(line, keys[i], len) &&
			    strspn(line + len, " ") == (size_t)(colon - line - len) &&
			    sscanf(colon + 1, "%lld", &vals[i]) == 1) {
				found++;
				break;
			}
		}
	}
	fclose(f);
	return found == n ? 0 : -ENOENT;
}

int sl_proc_sched_read(pid_t pid, const char *key, long long *val)
{
	return sl_proc_sched_fields(pid, &key, val, 1);
}

char sl_task_state(pid_t pid)
{
	char state[4];

	return sl_proc_stat(pid, 3, state, sizeof(state)) ? '?' : state[0];
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
