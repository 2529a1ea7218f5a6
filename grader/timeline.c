// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - draw where a test's deadline tasks ran: one SVG timeline.
 *
 *   timeline IN.trace OUT.svg
 *
 * IN holds one test's trace lines (labs/lib/trace.h prints them in the
 * guest; the parser strips the run's marker):
 *
 *	TRACE <test> cpu <cpu> <capacity>
 *	TRACE <test> run <pid> <cpu> <start_us> <end_us>
 *	TRACE <test> mig <pid> <t_us> <from_cpu> <to_cpu>
 *	TRACE <test> thr <pid> <t_us> <cpu>
 *	TRACE <test> wake <pid> <t_us> <cpu>
 *	TRACE <test> lost <n>
 *
 * Lines of another test than the first line's, and lines that are none of
 * these, are skipped.  OUT is a self-contained SVG: a lane per CPU in CPU
 * order, labelled with its capacity, the biggest CPUs tinted; a task's runs
 * as rectangles in its colour; migrations as arrows between lanes;
 * throttle/preemption points and wakeups as markers; a time axis in ms.
 * Every element a test may look for has a class and data- attributes:
 *
 *	<g class="lane" data-cpu="0" data-capacity="512" data-big="0">
 *	<rect class="run" data-pid= data-cpu= data-start-us= data-end-us=>
 *	<line class="mig" data-pid= data-t-us= data-from= data-to=>
 *	<path class="thr" data-pid= data-cpu= data-t-us=>
 *	<circle class="wake" data-pid= data-cpu= data-t-us=>
 *	<line class="tick" data-ms=>
 *
 * The trace comes from the guest, so it is not trusted: numbers are read
 * as numbers and a line with one out of range (MAX_NUMBER) is skipped, so
 * no arithmetic overflows; the test name is escaped; every table is
 * bounded.  Exit status (results.h): 0 drawn; 2 a usage or I/O error, or
 * IN has no trace line (then OUT is not written).
 */
#include "results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CPUS	64
#define MAX_ITEMS	8192
#define MAX_PIDS	32
#define MAX_NUMBER	1000000000000000LL	/* us: 31 years */

/* Layout, in SVG user units (px). */
#define WIDTH		1000
#define LABEL_W		180
#define RIGHT_M		30
#define TOP		78
#define LANE_H		34
#define LANE_GAP	6
#define PLOT_W		(WIDTH - LABEL_W - RIGHT_M)

static const char *const palette[] = {
	"#4e79a7", "#e15759", "#59a14f", "#b07aa1", "#f28e2b",
	"#76b7b2", "#9c755f", "#ff9da7", "#edc948", "#bab0ac",
};
#define NR_COLORS (sizeof(palette) / sizeof(palette[0]))

struct item {
	char kind;		/* 'r', 'm', 't', 'w' */
	long pid;
	long cpu, cpu2;		/* cpu2: a migration's destination */
	long long t, t2;	/* us; t2: a run's end */
};

static struct {
	char test[64];
	int nr_cpus;
	struct { long cpu, cap; } cpus[MAX_CPUS];
	int nr_items;
	struct item items[MAX_ITEMS];
	int nr_pids;
	long pids[MAX_PIDS];
	long long lost, skipped, tmax;
	long long span;		/* the axis: tmax up to a whole tick */
	long max_cap;
} tl;

static int cpu_lane(long cpu)
{
	for (int i = 0; i < tl.nr_cpus; i++)
		if (tl.cpus[i].cpu == cpu)
			return i;
	return -1;
}

/* The lane of @cpu, made (capacity unknown: -1) if the trace had no line. */
static int add_cpu(long cpu, long cap)
{
	int i = cpu_lane(cpu);

	if (cpu < 0 || cpu > 4095)
		return -1;
	if (i < 0) {
		if (tl.nr_cpus == MAX_CPUS)
			return -1;
		i = tl.nr_cpus++;
		tl.cpus[i].cpu = cpu;
		tl.cpus[i].cap = -1;
	}
	if (cap >= 0)
		tl.cpus[i].cap = cap;
	return i;
}

static int pid_color(long pid)
{
	for (int i = 0; i < tl.nr_pids; i++)
		if (tl.pids[i] == pid)
			return i % NR_COLORS;
	if (tl.nr_pids < MAX_PIDS)
		tl.pids[tl.nr_pids++] = pid;
	return (tl.nr_pids - 1) % NR_COLORS;
}

static void add_item(char kind, long pid, long cpu, long cpu2, long long t, long long t2)
{
	if (tl.nr_items == MAX_ITEMS || t < 0 || t2 < 0 || pid < 0 ||
	    add_cpu(cpu, -1) < 0 || (kind == 'm' && add_cpu(cpu2, -1) < 0)) {
		tl.skipped++;
		return;
	}
	tl.items[tl.nr_items++] = (struct item){ kind, pid, cpu, cpu2, t, t2 };
	pid_color(pid);
	if (t > tl.tmax)
		tl.tmax = t;
	if (t2 > tl.tmax)
		tl.tmax = t2;
}

/*
 * Up to @max numbers from @s into @v; how many, or -1 if a word is not a
 * number or is one beyond +-MAX_NUMBER.
 */
static int read_numbers(const char *s, long long *v, int max)
{
	int n = 0;

	for (;;) {
		char *end;

		s += strspn(s, " ");
		if (!*s || n == max)
			return n;
		errno = 0;
		v[n] = strtoll(s, &end, 10);
		if (end == s || (*end && *end != ' ') || errno ||
		    v[n] > MAX_NUMBER || v[n] < -MAX_NUMBER)
			return -1;
		n++;
		s = end;
	}
}

/* One line; returns 1 if it was a trace line of our test. */
static int parse_line(const char *line)
{
	char test[64], kind[8];
	long long v[4] = { 0 }, a, b, c, d;
	int n, at;

	if (strncmp(line, "TRACE ", 6))
		return 0;
	if (sscanf(line + 6, "%63s %7s %n", test, kind, &at) < 2)
		return 0;
	if (!tl.test[0])
		snprintf(tl.test, sizeof(tl.test), "%s", test);
	else if (strcmp(tl.test, test))
		return 0;
	n = read_numbers(line + 6 + at, v, 4);
	if (n < 1) {
		tl.skipped++;
		return 1;
	}
	a = v[0], b = v[1], c = v[2], d = v[3];
	n += 2;	/* as counted with the test and the kind */
	if (!strcmp(kind, "cpu") && n >= 4) {
		add_cpu(a, b < 0 ? -1 : b);
	} else if (!strcmp(kind, "run") && n >= 6 && d >= c) {
		add_item('r', a, b, 0, c, d);
	} else if (!strcmp(kind, "mig") && n >= 6) {
		add_item('m', a, c, d, b, 0);
	} else if (!strcmp(kind, "thr") && n >= 5) {
		add_item('t', a, c, 0, b, 0);
	} else if (!strcmp(kind, "wake") && n >= 5) {
		add_item('w', a, c, 0, b, 0);
	} else if (!strcmp(kind, "lost")) {
		if (a > 0)
			tl.lost = a > MAX_NUMBER - tl.lost ? MAX_NUMBER : tl.lost + a;
	} else {
		tl.skipped++;
	}
	return 1;
}

static int by_cpu(const void *a, const void *b)
{
	const long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static double x_of(long long t)
{
	return LABEL_W + (double)t * PLOT_W / tl.span;
}

static double lane_y(int lane)
{
	return TOP + lane * (LANE_H + LANE_GAP);
}

/* A "nice" tick step in us (1, 2 or 5 times a power of ten ms or us). */
static long long tick_step(long long span)
{
	long long step = 1;

	for (;;) {
		if (span / step <= 10)
			return step;
		if (span / (step * 2) <= 10)
			return step * 2;
		if (span / (step * 5) <= 10)
			return step * 5;
		step *= 10;
	}
}

static void fmt_ms(char *buf, size_t len, long long us)
{
	if (us % 1000 == 0)
		snprintf(buf, len, "%lld", us / 1000);
	else
		snprintf(buf, len, "%.3g", us / 1000.0);
}

static void write_svg(FILE *f)
{
	int nr_lanes = tl.nr_cpus, runs = 0, migs = 0, thrs = 0, wakes = 0;
	double bottom = lane_y(nr_lanes) - LANE_GAP;
	int height = (int)bottom + 120;
	long long step = tick_step(tl.tmax);
	char a[32], b[32];

	for (int i = 0; i < tl.nr_items; i++) {
		runs += tl.items[i].kind == 'r';
		migs += tl.items[i].kind == 'm';
		thrs += tl.items[i].kind == 't';
		wakes += tl.items[i].kind == 'w';
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
		"font-size=\"12\" data-test=\"", WIDTH, height, WIDTH, height);
	xml_str(f, tl.test);
	fprintf(f, "\" data-tmax-us=\"%lld\">\n", tl.tmax);
	fputs("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
	      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
	      "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#222\"/></marker></defs>\n", f);
	fprintf(f, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		WIDTH, height);

	/* Title and summary */
	fputs("<text class=\"title\" x=\"16\" y=\"26\" font-size=\"17\" font-weight=\"bold\">Where the tasks of ", f);
	xml_str(f, tl.test);
	fputs(" ran</text>\n", f);
	fprintf(f, "<text class=\"summary\" x=\"16\" y=\"46\" fill=\"#555\">%d run%s, %d migration%s, "
		"%d switch%s out while runnable, %d wakeup%s over %.3f ms",
		runs, runs == 1 ? "" : "s", migs, migs == 1 ? "" : "s",
		thrs, thrs == 1 ? "" : "es", wakes, wakes == 1 ? "" : "s", tl.tmax / 1000.0);
	if (tl.lost)
		fprintf(f, "; %lld earlier or shorter events merged or dropped in the guest", tl.lost);
	if (tl.skipped)
		fprintf(f, "; %lld unreadable line%s skipped", tl.skipped, tl.skipped == 1 ? "" : "s");
	fputs("</text>\n", f);

	/* Lanes */
	for (int l = 0; l < nr_lanes; l++) {
		long cap = tl.cpus[l].cap;
		int big = cap > 0 && cap == tl.max_cap;
		double y = lane_y(l);

		fprintf(f, "<g class=\"lane\" data-cpu=\"%ld\" data-capacity=\"%ld\" data-big=\"%d\">\n",
			tl.cpus[l].cpu, cap, big);
		fprintf(f, " <rect class=\"lane-bg\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
			"fill=\"%s\" stroke=\"%s\"/>\n", LABEL_W, y, PLOT_W, LANE_H,
			big ? "#fdf0d2" : "#eef2f6", big ? "#e8c77a" : "#cfd8e2");
		/* The label, and a bar as long as the capacity (1024: full) */
		fprintf(f, " <text class=\"lane-label\" x=\"12\" y=\"%.1f\" font-weight=\"%s\">CPU %ld ",
			y + 15, big ? "bold" : "normal", tl.cpus[l].cpu);
		if (cap >= 0)
			fprintf(f, "(capacity %ld)</text>\n", cap);
		else
			fputs("(capacity ?)</text>\n", f);
		if (cap > 0)
			fprintf(f, " <rect class=\"capacity-bar\" x=\"12\" y=\"%.1f\" width=\"%.1f\" height=\"5\" "
				"fill=\"%s\"/>\n", y + 22, (LABEL_W - 28) * (double)(cap > 1024 ? 1024 : cap) / 1024,
				big ? "#d9a030" : "#8fa3b8");
		fputs("</g>\n", f);
	}

	/* Time axis and grid */
	fprintf(f, "<g class=\"axis\" data-step-us=\"%lld\">\n", step);
	fprintf(f, " <line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		LABEL_W, bottom + 8, LABEL_W + PLOT_W, bottom + 8);
	for (long long t = 0; t <= tl.span; t += step) {
		double x = x_of(t);

		fmt_ms(a, sizeof(a), t);
		fprintf(f, " <line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#000\" stroke-opacity=\"0.08\"/>\n", x, TOP, x, bottom);
		fprintf(f, " <line class=\"tick\" data-ms=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#333\"/>\n", a, x, bottom + 8, x, bottom + 13);
		fprintf(f, " <text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333\">%s</text>\n",
			x, bottom + 26, a);
	}
	fprintf(f, " <text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333\">time (ms)</text>\n",
		LABEL_W + PLOT_W / 2, bottom + 42);
	fputs("</g>\n", f);

	/* Runs, then the points over them */
	for (int i = 0; i < tl.nr_items; i++) {
		struct item *it = &tl.items[i];
		double x = x_of(it->t), y = lane_y(cpu_lane(it->cpu));
		const char *color = palette[pid_color(it->pid)];

		if (it->kind != 'r')
			continue;
		fmt_ms(a, sizeof(a), it->t);
		fmt_ms(b, sizeof(b), it->t2);
		fprintf(f, "<rect class=\"run\" data-pid=\"%ld\" data-cpu=\"%ld\" data-start-us=\"%lld\" "
			"data-end-us=\"%lld\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
			"<title>pid %ld on CPU %ld: %s to %s ms</title></rect>\n",
			it->pid, it->cpu, it->t, it->t2, x, y + 5,
			x_of(it->t2) - x < 1 ? 1 : x_of(it->t2) - x, LANE_H - 10, color,
			it->pid, it->cpu, a, b);
	}
	for (int i = 0; i < tl.nr_items; i++) {
		struct item *it = &tl.items[i];
		double x = x_of(it->t), y = lane_y(cpu_lane(it->cpu));
		const char *color = palette[pid_color(it->pid)];

		fmt_ms(a, sizeof(a), it->t);
		if (it->kind == 't') {
			fprintf(f, "<path class=\"thr\" data-pid=\"%ld\" data-cpu=\"%ld\" data-t-us=\"%lld\" "
				"d=\"M%.1f,%.1f l-4,-6 h8 z\" fill=\"#c0392b\" stroke=\"#fff\" stroke-width=\"0.5\">"
				"<title>pid %ld switched out runnable (throttled or preempted) on CPU %ld at %s ms</title></path>\n",
				it->pid, it->cpu, it->t, x, y + 6, it->pid, it->cpu, a);
		} else if (it->kind == 'w') {
			fprintf(f, "<circle class=\"wake\" data-pid=\"%ld\" data-cpu=\"%ld\" data-t-us=\"%lld\" "
				"cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"1.5\">"
				"<title>pid %ld woken up for CPU %ld at %s ms</title></circle>\n",
				it->pid, it->cpu, it->t, x, y + LANE_H - 3, color, it->pid, it->cpu, a);
		} else if (it->kind == 'm') {
			int from = cpu_lane(it->cpu), to = cpu_lane(it->cpu2);
			double y1 = lane_y(from) + LANE_H / 2.0, y2 = lane_y(to) + LANE_H / 2.0;

			/* Stop short of the lane's middle so that the head shows. */
			y2 += y2 > y1 ? -6 : 6;
			fprintf(f, "<line class=\"mig\" data-pid=\"%ld\" data-t-us=\"%lld\" data-from=\"%ld\" "
				"data-to=\"%ld\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" "
				"stroke-width=\"1.5\" marker-end=\"url(#arrow)\">"
				"<title>pid %ld migrated from CPU %ld to CPU %ld at %s ms</title></line>\n",
				it->pid, it->t, it->cpu, it->cpu2, x, y1, x, y2, it->pid, it->cpu, it->cpu2, a);
			fprintf(f, "<circle class=\"mig-from\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#222\"/>\n",
				x, y1);
		}
	}

	/* Legend */
	double ly = bottom + 66;
	int lx = 16;

	fputs("<g class=\"legend\">\n", f);
	for (int i = 0; i < tl.nr_pids && i < 8; i++, lx += 90) {
		fprintf(f, " <rect class=\"legend-pid\" data-pid=\"%ld\" x=\"%d\" y=\"%.1f\" width=\"14\" "
			"height=\"10\" fill=\"%s\"/>\n", tl.pids[i], lx, ly - 9, palette[i % NR_COLORS]);
		fprintf(f, " <text x=\"%d\" y=\"%.1f\">pid %ld</text>\n", lx + 19, ly, tl.pids[i]);
	}
	if (tl.nr_pids > 8) {
		fprintf(f, " <text x=\"%d\" y=\"%.1f\">+%d more</text>\n", lx, ly, tl.nr_pids - 8);
		lx += 70;
	}
	ly += 20;
	fprintf(f, " <path d=\"M%d,%.1f l-4,-6 h8 z\" fill=\"#c0392b\"/>"
		"<text x=\"%d\" y=\"%.1f\">switched out runnable: throttled or preempted</text>\n",
		20, ly - 2, 30, ly);
	fprintf(f, " <line x1=\"330\" y1=\"%.1f\" x2=\"352\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"1.5\" "
		"marker-end=\"url(#arrow)\"/><text x=\"360\" y=\"%.1f\">migration</text>\n", ly - 4, ly - 4, ly);
	fprintf(f, " <circle cx=\"445\" cy=\"%.1f\" r=\"2.5\" fill=\"#fff\" stroke=\"#555\" stroke-width=\"1.5\"/>"
		"<text x=\"453\" y=\"%.1f\">wakeup</text>\n", ly - 4, ly);
	fprintf(f, " <rect x=\"520\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#fdf0d2\" stroke=\"#e8c77a\"/>"
		"<text x=\"539\" y=\"%.1f\">biggest CPUs (capacity %ld)</text>\n", ly - 9, ly, tl.max_cap);
	fprintf(f, " <rect x=\"730\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#eef2f6\" stroke=\"#cfd8e2\"/>"
		"<text x=\"749\" y=\"%.1f\">smaller CPUs</text>\n", ly - 9, ly);
	fputs("</g>\n</svg>\n", f);
}

int main(int argc, char **argv)
{
	char line[512];
	int lines = 0;
	FILE *in, *out;

	if (argc != 3) {
		fprintf(stderr, "usage: timeline IN.trace OUT.svg\n");
		return EXIT_TOOL_ERROR;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		fprintf(stderr, "timeline: %s: %s\n", argv[1], strerror(errno));
		return EXIT_TOOL_ERROR;
	}
	while (fgets(line, sizeof(line), in)) {
		size_t len = strcspn(line, "\r\n");

		/* The rest of an overlong line is skipped, not read as a line. */
		if (line[len] == '\0' && !feof(in)) {
			int c;

			while ((c = fgetc(in)) != EOF && c != '\n')
				;
			tl.skipped++;
			continue;
		}
		line[len] = '\0';
		lines += parse_line(line);
	}
	fclose(in);
	if (!lines) {
		fprintf(stderr, "timeline: %s: no TRACE lines\n", argv[1]);
		return EXIT_TOOL_ERROR;
	}
	qsort(tl.cpus, tl.nr_cpus, sizeof(tl.cpus[0]), by_cpu);
	for (int i = 0; i < tl.nr_cpus; i++)
		if (tl.cpus[i].cap > tl.max_cap)
			tl.max_cap = tl.cpus[i].cap;
	if (tl.tmax < 1)
		tl.tmax = 1;
	tl.span = (tl.tmax + tick_step(tl.tmax) - 1) / tick_step(tl.tmax) * tick_step(tl.tmax);

	out = fopen(argv[2], "w");
	if (!out) {
		fprintf(stderr, "timeline: %s: %s\n", argv[2], strerror(errno));
		return EXIT_TOOL_ERROR;
	}
	write_svg(out);
	if (fclose(out)) {
		/* No half-written SVG for the report to link. */
		fprintf(stderr, "timeline: %s: %s\n", argv[2], strerror(errno));
		unlink(argv[2]);
		return EXIT_TOOL_ERROR;
	}
	return EXIT_PASSED;
}
