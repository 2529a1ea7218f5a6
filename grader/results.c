// SPDX-License-Identifier: GPL-2.0
/* results.c - reading and writing one lab's result file (see results.h). */
#include "results.h"

#include <string.h>
#include <stdlib.h>

const char *const verdict_names[V_NR] = {
	[V_OK] = "ok",
	[V_TEST_CRASH] = "suite-crashed",
	[V_NO_TESTS] = "no-tests",
	[V_HANG] = "hang",
	[V_FLOOD] = "flood",
	[V_WARNING] = "warning",
	[V_BUG] = "bug",
	[V_OOPS] = "oops",
	[V_PANIC] = "panic",
	[V_NO_APPLY] = "no-apply",
	[V_NO_BUILD] = "no-build",
	[V_REJECTED] = "rejected",
};

static const char *const verdict_texts[V_NR] = {
	[V_OK] = "tests ran",
	[V_TEST_CRASH] = "the test suite did not finish",
	[V_NO_TESTS] = "the kernel never reached the tests",
	[V_HANG] = "the kernel hung (time limit reached)",
	[V_FLOOD] = "the kernel flooded the console (its size limit reached)",
	[V_WARNING] = "the kernel printed a WARNING",
	[V_BUG] = "the kernel reported a BUG (or a lockdep splat)",
	[V_OOPS] = "the kernel oopsed",
	[V_PANIC] = "the kernel panicked",
	[V_NO_APPLY] = "the submission does not apply to the starter tree",
	[V_NO_BUILD] = "the kernel does not build",
	[V_REJECTED] = "the submission changes files outside the labs' own",
};

const char *verdict_text(enum verdict v)
{
	return verdict_texts[v];
}

enum verdict verdict_from_name(const char *name)
{
	for (int v = 0; v < V_NR; v++)
		if (!strcmp(verdict_names[v], name))
			return v;
	return V_NO_TESTS;
}

void clean_copy(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && src[i] && src[i] != '\n'; i++)
		dst[i] = ((unsigned char)src[i] < 0x20 || src[i] == 0x7f) ? ' ' : src[i];
	while (i > 0 && dst[i - 1] == ' ' && src[i] == '\0')
		i--;
	dst[i] = '\0';
}

void result_write(FILE *f, const struct lab_result *r)
{
	fprintf(f, "lab\t%s\t%s\n", r->lab, r->title);
	fprintf(f, "verdict\t%s\n", verdict_names[r->verdict]);
	fprintf(f, "detail\t%s\n", r->detail);
	for (int i = 0; i < r->nr_excerpt; i++)
		fprintf(f, "excerpt\t%s\n", r->excerpt[i]);
	for (int i = 0; i < r->nr_tests; i++) {
		const struct test_result *t = &r->tests[i];

		fprintf(f, "test\t%s\t%s\t%d\t%d\t%s\n", t->name,
			t->passed ? "pass" : "fail", t->points, t->max_points,
			t->message);
	}
	for (int i = 0; i < r->nr_tests; i++)
		if (r->tests[i].timeline[0])
			fprintf(f, "timeline\t%s\t%s\n", r->tests[i].name,
				r->tests[i].timeline);
}

/* Split @line at tabs into at most @max fields; the last takes the rest. */
static int split(char *line, char **field, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	while (n < max - 1) {
		char *tab = strchr(line, '\t');

		field[n++] = line;
		if (!tab)
			return n;
		*tab = '\0';
		line = tab + 1;
	}
	field[n++] = line;
	return n;
}

int result_read(FILE *f, struct lab_result *r)
{
	char line[LINE_MAX_LEN * 2];
	char *fl[6];

	memset(r, 0, sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		int n = split(line, fl, 6);

		if (!strcmp(fl[0], "lab") && n >= 2) {
			clean_copy(r->lab, fl[1], sizeof(r->lab));
			if (n >= 3)
				clean_copy(r->title, fl[2], sizeof(r->title));
		} else if (!strcmp(fl[0], "verdict") && n >= 2) {
			r->verdict = verdict_from_name(fl[1]);
		} else if (!strcmp(fl[0], "detail") && n >= 2) {
			clean_copy(r->detail, fl[1], sizeof(r->detail));
		} else if (!strcmp(fl[0], "excerpt") && n >= 2 &&
			   r->nr_excerpt < MAX_EXCERPT) {
			clean_copy(r->excerpt[r->nr_excerpt++], fl[1], LINE_MAX_LEN);
		} else if (!strcmp(fl[0], "test") && n >= 5 &&
			   r->nr_tests < MAX_TESTS) {
			struct test_result *t = &r->tests[r->nr_tests++];

			clean_copy(t->name, fl[1], sizeof(t->name));
			t->passed = !strcmp(fl[2], "pass");
			t->points = atoi(fl[3]);
			t->max_points = atoi(fl[4]);
			clean_copy(t->message, n >= 6 ? fl[5] : "", sizeof(t->message));
		} else if (!strcmp(fl[0], "timeline") && n >= 3) {
			for (int i = 0; i < r->nr_tests; i++)
				if (!strcmp(r->tests[i].name, fl[1]))
					clean_copy(r->tests[i].timeline, fl[2],
						   sizeof(r->tests[i].timeline));
		} else {
			return -1;
		}
	}
	return r->lab[0] ? 0 : -1;
}

int lab_score(const struct lab_result *r)
{
	int s = 0;

	for (int i = 0; i < r->nr_tests; i++)
		s += r->tests[i].points;
	return s;
}

int lab_max(const struct lab_result *r)
{
	int s = 0;

	for (int i = 0; i < r->nr_tests; i++)
		s += r->tests[i].max_points;
	return s;
}
