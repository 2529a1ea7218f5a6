// SPDX-License-Identifier: GPL-2.0
/* trace.c - the placement trace of the tasks under test; see trace.h. */
#include "trace.h"
#include "schedlab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/* Overridable to try the parser on a recorded trace on the host. */
#define SL_TRACE_CPU_SYSFS	"/sys/devices/system/cpu"

/* The events traced, all of the "sched" system. */
static const char *const sl_trace_events[] = {
	"sched_switch", "sched_wakeup", "sched_migrate_task",
};
#define NR_EVENTS	(sizeof(sl_trace_events) / sizeof(sl_trace_events[0]))

/* What sl_trace_start() and sl_trace_dump() write to trace_marker. */
#define START_MARK	"sl_trace_start"
#define END_MARK	"sl_trace_dump"

enum { EV_SWITCH, EV_WAKEUP, EV_MIGRATE, EV_MARK };

struct sl_item {
	char kind;		/* 'r' run, 'm' mig, 't' thr, 'w' wake; 0: deleted */
	int pid, cpu, cpu2;	/* cpu2: a migration's destination */
	uint64_t t, t2;		/* us since the first event; t2: a run's end */
};

static int trace_write(const char *file, const char *val)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), SL_TRACE_DIR "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Whether the buffer is @kb per CPU: buffer_size_kb reads @kb rounded up to
 * whole pages of events (less than a 4 KiB page more: 256 reads 258), not
 * "7 (expanded: 1408)" as before tracing was first used.
 */
static int buffer_is(long kb)
{
	long now = sl_read_long(SL_TRACE_DIR "/buffer_size_kb");

	return now >= kb && now < kb + 4;
}

/* Whether set_event lists exactly the events of sl_trace_events[]. */
static int events_are_ours(void)
{
	FILE *f = fopen(SL_TRACE_DIR "/set_event", "r");
	char line[128];
	size_t seen = 0;
	int ours = 1;

	if (!f)
		return 0;
	while (ours && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		ours = 0;
		for (size_t i = 0; i < NR_EVENTS && !ours; i++)
			ours = !strncmp(line, "sched:", 6) && !strcmp(line + 6, sl_trace_events[i]);
		seen++;
	}
	fclose(f);
	return ours && seen == NR_EVENTS;
}

/*
 * Changing the buffer's size or an event, or clearing the buffer, waits
 * for every CPU (tens of ms each under emulation).  So the size and the
 * events are set only when they are not so already (the first test of a
 * boot), and the buffer is never cleared: sl_trace_dump() consumes what it
 * reads (trace_pipe) and keeps only what follows the last start mark.
 */
int sl_trace_start(void)
{
	char path[128];
	int ret;

	if (access(SL_TRACE_DIR "/trace", F_OK) &&
	    mount("tracefs", SL_TRACE_DIR, "tracefs", 0, NULL) && errno != EBUSY)
		return -errno;
	ret = trace_write("tracing_on", "0");
	if (ret)
		return ret;
	if (!buffer_is(SL_TRACE_BUFFER_KB)) {
		snprintf(path, sizeof(path), "%d", SL_TRACE_BUFFER_KB);
		trace_write("buffer_size_kb", path);	/* keeps the old size if refused */
	}
	if (!events_are_ours()) {
		trace_write("events/enable", "0");
		for (size_t i = 0; i < NR_EVENTS; i++) {
			snprintf(path, sizeof(path), "events/sched/%s/enable", sl_trace_events[i]);
			ret = trace_write(path, "1");
			if (ret)
				return ret;
		}
	}
	ret = trace_write("tracing_on", "1");
	return ret ? ret : trace_write("trace_marker", START_MARK);
}

/* The number after "key" in s, or -1. */
static long field(const char *s, const char *key)
{
	const char *p = s ? strstr(s, key) : NULL;

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/*
 * One line of the trace file:
 *	  comm-pid  [cpu] flags  sec.usec: event: fields
 * comm may hold anything, so read it from the event name backwards.
 * Returns the event, or -1 for a line that is none of ours.
 */
static int parse_line(const char *line, int *cpu, uint64_t *ts, const char **fields)
{
	static const char *const names[] = {
		[EV_SWITCH] = ": sched_switch: ",
		[EV_WAKEUP] = ": sched_wakeup: ",
		[EV_MIGRATE] = ": sched_migrate_task: ",
		[EV_MARK] = ": tracing_mark_write: ",
	};
	const char *p = NULL, *t, *b;
	unsigned long long sec, frac = 0;
	int ev, digits = 0;

	for (ev = 0; ev <= EV_MARK && !p; ev++)
		p = strstr(line, names[ev]);
	if (!p)
		return -1;
	ev--;
	*fields = p + strlen(names[ev]);
	for (t = p; t > line && t[-1] != ' '; t--)
		;
	for (b = t; b > line && *b != '['; b--)
		;
	if (*b != '[')
		return -1;
	*cpu = atoi(b + 1);
	sec = strtoull(t, (char **)&p, 10);
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			frac = frac * 10 + (*p - '0');
	for (; digits > 6; digits--)
		frac /= 10;
	for (; digits < 6; digits++)
		frac *= 10;
	*ts = sec * 1000000ULL + frac;
	return ev;
}

struct sl_trace {
	struct sl_item *items;
	int nr, alloc;
};

static void add(struct sl_trace *tr, char kind, int pid, int cpu, int cpu2,
		uint64_t t, uint64_t t2)
{
	if (tr->nr == tr->alloc) {
		int alloc = tr->alloc ? tr->alloc * 2 : 256;
		struct sl_item *items = realloc(tr->items, alloc * sizeof(*items));

		if (!items)
			return;		/* out of memory: fewer items */
		tr->items = items;
		tr->alloc = alloc;
	}
	tr->items[tr->nr++] = (struct sl_item){ kind, pid, cpu, cpu2, t, t2 };
}

static int by_time(const void *a, const void *b)
{
	const struct sl_item *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->kind == 'r' ? 1 : y->kind == 'r' ? -1 : 0; /* thr before run */
}

static int pid_index(const pid_t *pids, int n, long pid)
{
	if (pid <= 0)		/* the idle task, or no such field */
		return -1;
	for (int i = 0; i < n; i++)
		if (pids[i] == pid)
			return i;
	return -1;
}

static void compact(struct sl_trace *tr)
{
	int j = 0;

	for (int i = 0; i < tr->nr; i++)
		if (tr->items[i].kind)
			tr->items[j++] = tr->items[i];
	tr->nr = j;
}

/*
 * Merge each task's consecutive runs on one CPU that are at most @gap apart,
 * then drop its thr and wake points inside the merged runs.
 */
static void merge_runs(struct sl_trace *tr, const pid_t *pids, int n, uint64_t gap)
{
	int *last = malloc(n * sizeof(*last));

	if (!last)
		return;
	for (int k = 0; k < n; k++)
		last[k] = -1;
	for (int i = 0; i < tr->nr; i++) {
		struct sl_item *it = &tr->items[i];
		int k = pid_index(pids, n, it->pid);

		if (it->kind == 'm') {
			last[k] = -1;
		} else if (it->kind == 'r') {
			struct sl_item *l = last[k] < 0 ? NULL : &tr->items[last[k]];

			if (l && l->cpu == it->cpu && it->t <= l->t2 + gap) {
				if (it->t2 > l->t2)
					l->t2 = it->t2;
				it->kind = 0;
			} else {
				last[k] = i;
			}
		}
	}
	for (int i = 0; i < tr->nr; i++) {
		struct sl_item *it = &tr->items[i];
		int k = pid_index(pids, n, it->pid);

		if (it->kind == 'r')
			last[k] = i;
		else if ((it->kind == 't' || it->kind == 'w') && last[k] >= 0 &&
			 it->t > tr->items[last[k]].t && it->t < tr->items[last[k]].t2)
			it->kind = 0;
	}
	free(last);
	compact(tr);
}

int sl_trace_dump(const char *test, const pid_t *pids, int n)
{
	struct sl_trace tr = { 0 };
	uint64_t t0 = 0, last_t = 0, *start;
	int *on, nr_cpus, limit, lines = 0, lost = 0, first = 1, fd;
	char name[64], line[512], path[128];
	FILE *f;

	trace_write("trace_marker", END_MARK);	/* the trace's end */
	trace_write("tracing_on", "0");
	snprintf(name, sizeof(name), "%s", test);
	for (char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.'))
			*c = '_';
	/* Consumed as read; without waiting for more once it is empty. */
	fd = open(SL_TRACE_DIR "/trace_pipe", O_RDONLY | O_NONBLOCK);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	on = calloc(n > 0 ? n : 1, sizeof(*on));
	start = calloc(n > 0 ? n : 1, sizeof(*start));
	if (!on || !start) {
		fclose(f);
		free(on);
		free(start);
		return -ENOMEM;
	}
	for (int k = 0; k < n; k++)
		on[k] = -2;		/* not seen yet */
	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	for (int cpu = nr_cpus; cpu < 1024; cpu++) {
		snprintf(path, sizeof(path), SL_TRACE_CPU_SYSFS "/cpu%d/cpu_capacity", cpu);
		if (access(path, F_OK))
			break;
		nr_cpus = cpu + 1;
	}

	while (fgets(line, sizeof(line), f)) {
		const char *fl;
		uint64_t t;
		int cpu, k, ev = parse_line(line, &cpu, &t, &fl);

		if (ev == EV_MARK && !strncmp(fl, START_MARK, strlen(START_MARK))) {
			/* Ours starts here: what came before is an earlier test's. */
			tr.nr = 0;
			for (int j = 0; j < n; j++)
				on[j] = -2;
			first = 1;
			last_t = 0;
			continue;
		}
		if (ev == EV_MARK) {
			/* Our own end mark, written as the trace stops. */
			if (!first)
				last_t = t >= t0 ? t - t0 : 0;
			continue;
		}
		if (ev < 0)
			continue;
		if (first)
			t0 = t, first = 0;
		t = t >= t0 ? t - t0 : 0;
		last_t = t;
		if (cpu + 1 > nr_cpus)
			nr_cpus = cpu + 1;
		if (ev == EV_SWITCH) {
			const char *next = strstr(fl, " ==> ");
			const char *state = strstr(fl, " prev_state=");

			k = pid_index(pids, n, field(fl, " prev_pid="));
			if (k >= 0 && state && next > state) {
				if (on[k] == cpu || on[k] == -2)
					add(&tr, 'r', pids[k], cpu, 0, on[k] == -2 ? 0 : start[k], t);
				on[k] = -1;
				if (state[strlen(" prev_state=")] == 'R')
					add(&tr, 't', pids[k], cpu, 0, t, 0);
			}
			k = pid_index(pids, n, field(next, " next_pid="));
			if (k >= 0)
				on[k] = cpu, start[k] = t;
		} else if (ev == EV_WAKEUP) {
			k = pid_index(pids, n, field(fl, " pid="));
			if (k >= 0) {
				add(&tr, 'w', pids[k], field(fl, " target_cpu="), 0, t, 0);
				if (on[k] == -2)
					on[k] = -1;
			}
		} else {
			k = pid_index(pids, n, field(fl, " pid="));
			if (k >= 0) {
				add(&tr, 'm', pids[k], field(fl, " orig_cpu="),
				    field(fl, " dest_cpu="), t, 0);
				if (on[k] == -2)
					on[k] = -1;
			}
		}
	}
	fclose(f);
	for (int k = 0; k < n; k++)	/* still running when the trace stopped */
		if (on[k] >= 0)
			add(&tr, 'r', pids[k], on[k], 0, start[k], last_t);
	free(on);
	free(start);
	qsort(tr.items, tr.nr, sizeof(*tr.items), by_time);

	/* The bound: merge ever longer gaps, then drop the oldest. */
	limit = SL_TRACE_MAX_LINES - nr_cpus - 1;
	lost = tr.nr;
	for (uint64_t gap = 50; tr.nr > limit && gap <= 2 * last_t + 100; gap *= 2)
		merge_runs(&tr, pids, n, gap);
	if (tr.nr > limit) {
		memmove(tr.items, tr.items + tr.nr - limit, limit * sizeof(*tr.items));
		tr.nr = limit;
	}
	lost -= tr.nr;

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(path, sizeof(path), SL_TRACE_CPU_SYSFS "/cpu%d/cpu_capacity", cpu);
		f = fopen(path, "r");
		long cap = -1;

		if (f) {
			if (fscanf(f, "%ld", &cap) != 1)
				cap = -1;
			fclose(f);
		}
		printf("TRACE %s cpu %d %ld\n", name, cpu, cap < 0 ? 1024 : cap);
		lines++;
	}
	for (int i = 0; i < tr.nr; i++, lines++) {
		struct sl_item *it = &tr.items[i];

		switch (it->kind) {
		case 'r':
			printf("TRACE %s run %d %d %llu %llu\n", name, it->pid, it->cpu,
			       (unsigned long long)it->t, (unsigned long long)it->t2);
			break;
		case 'm':
			printf("TRACE %s mig %d %llu %d %d\n", name, it->pid,
			       (unsigned long long)it->t, it->cpu, it->cpu2);
			break;
		default:
			printf("TRACE %s %s %d %llu %d\n", name, it->kind == 't' ? "thr" : "wake",
			       it->pid, (unsigned long long)it->t, it->cpu);
		}
	}
	if (lost > 0) {
		printf("TRACE %s lost %d\n", name, lost);
		lines++;
	}
	fflush(stdout);
	free(tr.items);
	return lines;
}
