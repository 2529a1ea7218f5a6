/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rqclamp.h - the runqueues' clamp buckets as the kit's debugfs file shows
 * them (lab 4's instrumentation, in a file no lab's solution may change),
 * two lines a CPU, each read under that CPU's rq lock:
 *
 *   cpu<N> uclamp.<min|max> <rq value> tasks <t0> .. <tB-1> values <v0> .. <vB-1>
 *
 * Plain C, no Check: the tests read the file through uclamp.h, and the
 * init reads it too, to check after every suite that each runqueue's clamp
 * is what its buckets say.
 */
#ifndef SCHEDLAB_RQCLAMP_H
#define SCHEDLAB_RQCLAMP_H

#define SL_UCLAMP_FILE		"/sys/kernel/debug/schedlab/uclamp"
#define SL_MAX_BUCKETS		20

enum { SL_UCLAMP_MIN, SL_UCLAMP_MAX };

/* One CPU's state for one clamp index. */
struct sl_rq_clamp {
	unsigned int value;	/* rq->uclamp[clamp_id].value */
	int nr;			/* number of buckets (UCLAMP_BUCKETS) */
	unsigned long tasks[SL_MAX_BUCKETS];
	unsigned long values[SL_MAX_BUCKETS];
};

/* "min" or "max" */
const char *sl_clamp_name(int id);
/* One line of the file into @cpu, @id and @rc (@line is cut up); -1 if it is not one. */
int sl_parse_rq_clamp(char *line, int *cpu, int *id, struct sl_rq_clamp *rc);
/* The top most bucket with tasks, -1 if none. */
int sl_rq_clamp_top(const struct sl_rq_clamp *rc);

#endif
