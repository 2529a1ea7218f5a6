/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task.h - test children that report back, clocks, and what /proc says
 * about a task.
 *
 * A test often forks a child that does something (becomes SCHED_DEADLINE
 * on a CPU, sleeps, spins) and reports what it saw.  sl_child_start()
 * forks it and runs fn(arg, res) there with a zeroed result buffer of
 * @size bytes, which goes back to the parent when fn returns;
 * sl_child_wait() reads it.  Every result starts with a struct sl_report:
 * a child that cannot do a step calls sl_child_fail(), which reports the
 * step and its error and ends the child, and sl_child_wait() then fails
 * the test with both.  A child may also say that it is ready
 * (sl_child_ready(), e.g. once it is SCHED_DEADLINE) and carry on; the
 * parent waits for that with sl_child_wait_ready().  A child never calls
 * ck_assert() (only the test's own process reports to Check), and dies
 * with the test's process.
 */
#ifndef SCHEDLAB_TASK_H
#define SCHEDLAB_TASK_H

#include "schedlab.h"

#include <stddef.h>

/* The first member of every child's result. */
struct sl_report {
	int err;		/* 0, or -errno of the step that failed */
	char step[64];		/* the step that failed */
};

struct sl_child {
	pid_t pid;		/* 0 once reaped */
	int fd;			/* the read end of its pipe */
	size_t size;		/* its result's size */
};

typedef void (*sl_child_fn)(const void *arg, void *res);

void sl_child_start(struct sl_child *c, sl_child_fn fn, const void *arg,
		    size_t size);
/* In the child: end it, reporting that @step failed with -errno @err. */
void sl_child_fail(const char *step, int err) __attribute__((noreturn));
/* In the child: tell the parent it is ready, and go on. */
void sl_child_ready(void);
/* Wait until the child is ready; fails the test if it ended instead. */
void sl_child_wait_ready(struct sl_child *c);
/* Wait for the child's result (@res, of the size given at the start). */
void sl_child_wait(struct sl_child *c, void *res);
/* Kill the child (if still there) and reap it. */
void sl_child_kill(struct sl_child *c);

/* CLOCK_MONOTONIC, the clock the scheduler's timers follow. */
long long sl_now_us(void);
double sl_now_ms(void);

/*
 * Field @field of /proc/@pid/stat, numbered as in proc(5) (3: state,
 * 39: processor), into @buf.  Returns 0 or -errno.
 */
SL_MUST_CHECK int sl_proc_stat(pid_t pid, int field, char *buf, size_t len);
/* The CPU @pid is on, or last ran on (field 39); -1 if it is gone. */
int sl_task_cpu(pid_t pid);
/* The state letter of /proc/PID/stat (R runnable, S sleeping), '?' if gone. */
char sl_task_state(pid_t pid);
/* voluntary_ctxt_switches of /proc/PID/status, -1 if the task is gone. */
long sl_voluntary_switches(pid_t pid);

/*
 * A numeric field of /proc/@pid/sched (SCHED_DEBUG), by its name, e.g.
 * "dl.deadline", into @val (the whole part of a fraction).  Returns 0 or
 * -errno; sl_proc_sched() (schedlab.h) is the same for a test's own
 * process, failing the test.  sl_proc_sched_fields() reads @n of them in
 * one go.
 */
SL_MUST_CHECK int sl_proc_sched_read(pid_t pid, const char *key, long long *val);
SL_MUST_CHECK int sl_proc_sched_fields(pid_t pid, const char *const *keys, long long *vals, int n);

#endif /* SCHEDLAB_TASK_H */
