/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - where did the task under test run?  A placement trace for the
 * report's timeline (grader/timeline.c draws it).
 *
 * Usage, in a test:
 *
 *	pid_t pid;
 *	int traced = sl_trace_start() == 0;	// tracing is best effort
 *
 *	pid = fork();			// the deadline task(s) under test
 *	...				// let it run, wait for it
 *	if (traced)
 *		sl_trace_dump("test_name", &pid, 1);
 *	ck_assert_msg(...);		// assert after the dump, so that a
 *					// failing test still shows its trace
 *
 * sl_trace_start() mounts tracefs at /sys/kernel/tracing if needed, enables
 * the sched_switch, sched_wakeup and sched_migrate_task events with a small
 * buffer (the oldest events are overwritten when it fills), unless they
 * are so already, starts tracing and marks the start.  sl_trace_dump()
 * stops tracing, reads (and so empties) the buffer from the last start
 * mark, keeps the events of @pids and prints them to stdout, one item a
 * line:
 *
 *	TRACE <test> cpu <cpu> <capacity>		every online CPU, first
 *	TRACE <test> run <pid> <cpu> <start_us> <end_us>	ran on <cpu>
 *	TRACE <test> mig <pid> <t_us> <from_cpu> <to_cpu>	sched_migrate_task
 *	TRACE <test> thr <pid> <t_us> <cpu>	switched out still runnable
 *						(throttled or preempted)
 *	TRACE <test> wake <pid> <t_us> <cpu>	sched_wakeup, on the target CPU
 *	TRACE <test> lost <n>			<n> items merged or dropped
 *						to stay within the bound
 *
 * Times are microseconds since the first event traced.  Items come in
 * time order (a run at its start).  A run still open when the trace stops
 * ends at the last event; one that began before the first event traced
 * starts at 0.  At most SL_TRACE_MAX_LINES lines are printed per dump: runs
 * of a task on one CPU separated by short gaps are merged first (with the
 * thr/wake points in those gaps), then the oldest items are dropped.
 * <test> is one word: other characters become '_'.
 *
 * Tests run one at a time (Check's fork mode), so one global trace is fine;
 * the dump runs in the test's process and flushes stdout.
 * Both return 0 (dump: the number of lines printed) or -errno.  A test
 * checks the start (without it there is nothing to dump); the dump fails
 * no test: a trace it cannot read only leaves the report without that
 * timeline.
 */
#ifndef SCHEDLAB_TRACE_H
#define SCHEDLAB_TRACE_H

#include <sys/types.h>

#include "schedlab.h"

#define SL_TRACE_DIR		"/sys/kernel/tracing"
#define SL_TRACE_BUFFER_KB	256	/* per CPU */
#define SL_TRACE_MAX_LINES	400

SL_MUST_CHECK int sl_trace_start(void);
int sl_trace_dump(const char *test, const pid_t *pids, int n);

#endif /* SCHEDLAB_TRACE_H */
