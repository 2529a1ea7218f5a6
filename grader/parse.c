// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - stage 6 of grading: turn one boot's console log into a lab result.
 *
 *   parse --lab NN --title T --tests LIST --mark MARK --status S LOG
 *	LIST: the lab's test names, one a line; S: boot.exp's exit status.
 *   parse --lab NN --title T --tests LIST --verdict V --detail D [LOG]
 *	a lab that never booted (V is no-apply, no-build or rejected); the
 *	tail of LOG, if given, becomes the excerpt.
 *
 * The result goes to standard output in the format of results.h.  With
 * --traces PREFIX, the placement traces a test printed ("TRACE NAME ...",
 * see labs/lib/trace.h) go to PREFIX.NAME.trace, one file a known test, at
 * most MAX_TRACE_LINES lines each, and the result names PREFIX.NAME.svg as
 * the test's timeline (grade.sh draws it).
 *
 * Only lines that begin with this run's MARK are the tests' own output;
 * anything else is the kernel's (or forged), and is only searched for
 * panics, oopses, BUGs and WARNINGs.  A lab with such a splat, a hang or a
 * suite that never finished scores 0: each test says why.
 */
#include "results.h"

#include <stdlib.h>
#include <string.h>

#define EXCERPT_AFTER 24
#define NO_RESULT "no result reported"
#define MAX_TRACE_LINES 2000

static const char *trace_prefix;
static int trace_lines[MAX_TESTS];

static struct lab_result res;

static void die(const char *msg)
{
	fprintf(stderr, "parse: %s\n", msg);
	exit(2);
}

/* "[    1.234567] text" -> "text" */
static const char *strip_timestamp(const char *s)
{
	if (s[0] == '[') {
		const char *end = strchr(s, ']');

		if (end && strspn(s + 1, " 0123456789.") == (size_t)(end - s - 1))
			return end[1] == ' ' ? end + 2 : end + 1;
	}
	return s;
}

/* The kind of kernel splat a console line starts, or V_OK. */
static enum verdict classify_splat(const char *line)
{
	const char *s = strip_timestamp(line);

	if (strstr(s, "Kernel panic - not syncing"))
		return V_PANIC;
	if (strstr(s, "Internal error: Oops") ||
	    !strncmp(s, "Unable to handle kernel", 23))
		return V_OOPS;
	if (!strncmp(s, "BUG: ", 5) || strstr(s, ": BUG: ") ||
	    strstr(s, "detected stall") || strstr(s, "detected stalls"))
		return V_BUG;
	if (!strncmp(s, "WARNING: ", 9))
		return V_WARNING;
	return V_OK;
}

static struct test_result *find_test(const char *name)
{
	for (int i = 0; i < res.nr_tests; i++)
		if (!strcmp(res.tests[i].name, name))
			return &res.tests[i];
	return NULL;
}

static void read_test_list(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot read the test list");
	while (fgets(line, sizeof(line), f) && res.nr_tests < MAX_TESTS) {
		struct test_result *t = &res.tests[res.nr_tests];

		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || find_test(line))
			continue;
		clean_copy(t->name, line, sizeof(t->name));
		t->max_points = 1;
		snprintf(t->message, sizeof(t->message), NO_RESULT);
		res.nr_tests++;
	}
	fclose(f);
}

/*
 * One line of Check's verbose output:
 *	file:line:R:tcase:test:iteration: message	(R: P, F or E)
 */
static int parse_check_line(const char *s)
{
	const char *f[6];
	char name[128];
	struct test_result *t;
	int n = 0;

	for (const char *p = s; n < 6 && p; n++) {
		f[n] = p;
		p = strchr(p, ':');
		if (p)
			p++;
	}
	if (n < 6 || f[2][1] != ':' || !strchr("PFE", f[2][0]))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)(f[5] - f[4] - 1), f[4]);
	t = find_test(name);
	if (!t)
		return 0;
	t->passed = f[2][0] == 'P';
	const char *msg = strchr(f[5], ':');

	msg = msg ? msg + 1 : "";
	while (*msg == ' ')
		msg++;
	if (f[2][0] == 'E')
		snprintf(t->message, sizeof(t->message), "error: %s", msg);
	else
		clean_copy(t->message, msg, sizeof(t->message));
	return 1;
}

/* "TRACE NAME ...": append the line to NAME's trace file. */
static void save_trace_line(const char *s)
{
	char name[128], path[512];
	struct test_result *t;
	FILE *f;

	if (!trace_prefix || sscanf(s, "TRACE %127s", name) != 1)
		return;
	t = find_test(name);
	if (!t || trace_lines[t - res.tests]++ >= MAX_TRACE_LINES)
		return;
	snprintf(path, sizeof(path), "%s.%s.trace", trace_prefix, name);
	f = fopen(path, trace_lines[t - res.tests] == 1 ? "w" : "a");
	if (!f)
		return;
	fprintf(f, "%s\n", s);
	fclose(f);
	snprintf(t->timeline, sizeof(t->timeline), "%s.%s.svg", trace_prefix, name);
}

static void add_excerpt(const char *line)
{
	if (res.nr_excerpt < MAX_EXCERPT)
		clean_copy(res.excerpt[res.nr_excerpt++], line, LINE_MAX_LEN);
}

static void parse_console(FILE *log, const char *mark, int status)
{
	char line[4096];
	size_t marklen = strlen(mark);
	int began = 0, ended = 0, ours = 0, after = -1, ignored = 0;
	enum verdict splat = V_OK;

	while (fgets(line, sizeof(line), log)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!strncmp(line, mark, marklen) && line[marklen] == ' ') {
			const char *s = line + marklen + 1;

			/* Only this lab's section: a boot may run several. */
			if (!strncmp(s, "BEGIN ", 6))
				ours = !strcmp(s + 6, res.lab), began |= ours;
			else if (!strncmp(s, "END ", 4) && ours)
				ours = 0, ended = 1;
			else if (ours && !strncmp(s, "TRACE ", 6))
				save_trace_line(s);
			else if (ours)
				parse_check_line(s);
			continue;
		}
		enum verdict v = classify_splat(line);

		if (v > splat) {
			/* The worst splat names the lab's verdict and excerpt. */
			splat = v;
			clean_copy(res.detail, strip_timestamp(line), sizeof(res.detail));
			if (res.nr_excerpt == 0 || v == V_PANIC) {
				if (v != V_PANIC)
					res.nr_excerpt = 0;
				after = EXCERPT_AFTER;
			}
		}
		if (after > 0) {
			add_excerpt(line);
			after--;
		}
		/* A result line without this run's mark does not count. */
		if (strstr(line, ":P:") || strstr(line, ":F:") || strstr(line, ":E:"))
			ignored++;
	}

	if (splat != V_OK)
		res.verdict = splat;
	else if (status == 1)
		res.verdict = V_PANIC;
	else if (status == 2)
		res.verdict = V_HANG;
	else if (!began)
		res.verdict = V_NO_TESTS;
	else if (!ended)
		res.verdict = V_TEST_CRASH;
	else
		res.verdict = V_OK;
	if (res.verdict == V_HANG)
		snprintf(res.detail, sizeof(res.detail),
			 "no end of the tests within the time limit%s",
			 began ? "" : "; the tests never started");
	else if (res.verdict == V_NO_TESTS && !res.detail[0])
		snprintf(res.detail, sizeof(res.detail),
			 "the console never showed the tests starting");
	else if (res.verdict == V_TEST_CRASH && !res.detail[0])
		snprintf(res.detail, sizeof(res.detail),
			 "the suite started but never reported its end");
	if (ignored && res.verdict == V_OK)
		snprintf(res.detail, sizeof(res.detail),
			 "%d result-like console line(s) without this run's marker were ignored",
			 ignored);
}

/*
 * A lab whose run went wrong scores 0: every test fails and says why, and
 * what it would have said on its own.
 */
static void score_tests(void)
{
	for (int i = 0; i < res.nr_tests; i++) {
		struct test_result *t = &res.tests[i];
		char own[LINE_MAX_LEN / 2];

		if (res.verdict >= V_NO_APPLY) {
			snprintf(t->message, sizeof(t->message), "not run: %s",
				 verdict_text(res.verdict));
		} else if (res.verdict != V_OK) {
			if (t->passed)
				snprintf(own, sizeof(own), "the test itself passed");
			else if (!strcmp(t->message, NO_RESULT))
				snprintf(own, sizeof(own), "the test never reported a result");
			else
				snprintf(own, sizeof(own), "the test itself failed: %s", t->message);
			snprintf(t->message, sizeof(t->message), "%s; %s",
				 verdict_text(res.verdict), own);
			t->passed = 0;
		}
		t->points = t->passed ? t->max_points : 0;
	}
}

static void excerpt_tail(const char *path, int n)
{
	char line[4096];
	char (*ring)[LINE_MAX_LEN] = calloc(n, LINE_MAX_LEN);
	int count = 0;
	FILE *f = fopen(path, "r");

	if (!f || !ring)
		die("cannot read the log");
	while (fgets(line, sizeof(line), f))
		clean_copy(ring[count++ % n], line, LINE_MAX_LEN);
	for (int i = count > n ? count - n : 0; i < count; i++)
		add_excerpt(ring[i % n]);
	fclose(f);
	free(ring);
}

int main(int argc, char **argv)
{
	const char *mark = NULL, *tests = NULL, *verdict = NULL, *log = NULL;
	int status = 0;

	for (int i = 1; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--lab") && val)
			clean_copy(res.lab, argv[++i], sizeof(res.lab));
		else if (!strcmp(argv[i], "--title") && val)
			clean_copy(res.title, argv[++i], sizeof(res.title));
		else if (!strcmp(argv[i], "--mark") && val)
			mark = argv[++i];
		else if (!strcmp(argv[i], "--tests") && val)
			tests = argv[++i];
		else if (!strcmp(argv[i], "--status") && val)
			status = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--verdict") && val)
			verdict = argv[++i];
		else if (!strcmp(argv[i], "--traces") && val)
			trace_prefix = argv[++i];
		else if (!strcmp(argv[i], "--detail") && val)
			clean_copy(res.detail, argv[++i], sizeof(res.detail));
		else if (argv[i][0] != '-' && !log)
			log = argv[i];
		else
			die("usage: parse --lab NN --title T --tests LIST (--mark M --status S LOG | --verdict V --detail D [LOG])");
	}
	if (!res.lab[0] || !tests)
		die("--lab and --tests are required");
	read_test_list(tests);

	if (verdict) {
		res.verdict = verdict_from_name(verdict);
		if (log)
			excerpt_tail(log, 20);
	} else {
		FILE *f;

		if (!mark || strlen(mark) < 8 || !log)
			die("a console log and a marker of 8 or more characters are required");
		f = fopen(log, "r");
		if (!f)
			die("cannot read the console log");
		parse_console(f, mark, status);
		fclose(f);
	}
	score_tests();
	result_write(stdout, &res);
	return 0;
}
