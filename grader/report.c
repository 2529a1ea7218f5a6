// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - stage 7 of grading: the per-lab, per-test table on the
 * terminal, results.json (Gradescope's autograder format) and JUnit XML.
 *
 *   report [--json FILE] [--junit FILE] [--title TEXT] [--style FILE] RESULT...
 *
 * Each RESULT is a lab result file written by parse (see results.h).
 * Exit status: 0 when every test passed, 1 otherwise, 2 on bad input.
 */
#include "results.h"

#include <stdlib.h>
#include <string.h>

static struct lab_result lab_results[16];
static int nr_labs;
static char style[LINE_MAX_LEN];	/* checkpatch's "total:" line */

/* An instructor's hidden tests of a lab have a lab id like "03h". */
static int is_hidden(const struct lab_result *r)
{
	return r->lab[0] && r->lab[strlen(r->lab) - 1] == 'h';
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void print_table(FILE *f, const char *title)
{
	int score = 0, max = 0;

	fprintf(f, "\n== %s ==\n", title);
	for (int l = 0; l < nr_labs; l++) {
		const struct lab_result *r = &lab_results[l];

		fprintf(f, "\nlab %s  %-38s %3d/%-3d %s\n", r->lab, r->title,
			lab_score(r), lab_max(r),
			r->verdict == V_OK ? "" : verdict_text(r->verdict));
		if (r->detail[0])
			fprintf(f, "        %s\n", r->detail);
		for (int i = 0; i < r->nr_tests; i++) {
			const struct test_result *t = &r->tests[i];

			fprintf(f, "  %s  %-40s %d/%d", t->passed ? "PASS" : "FAIL",
				t->name, t->points, t->max_points);
			if (!t->passed)
				fprintf(f, "  %s", t->message);
			fputc('\n', f);
			if (t->timeline[0])
				fprintf(f, "        timeline: %s\n", t->timeline);
		}
		if (r->nr_excerpt) {
			fprintf(f, "  -- what the %s showed --\n",
				r->verdict >= V_NO_APPLY ? "log" : "console");
			for (int i = 0; i < r->nr_excerpt; i++)
				fprintf(f, "  | %s\n", r->excerpt[i]);
		}
		score += lab_score(r);
		max += lab_max(r);
	}
	if (style[0])
		fprintf(f, "\nstyle (checkpatch, not scored): %s\n", style);
	fprintf(f, "\nscore: %d/%d\n", score, max);
}

static void lab_output(FILE *f, const struct lab_result *r)
{
	char buf[LINE_MAX_LEN * (MAX_EXCERPT + 3)];
	size_t n = 0;

	n += snprintf(buf + n, sizeof(buf) - n, "%s", verdict_text(r->verdict));
	if (r->detail[0])
		n += snprintf(buf + n, sizeof(buf) - n, ": %s", r->detail);
	for (int i = 0; i < r->nr_excerpt && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "\n%s", r->excerpt[i]);
	json_str(f, buf);
}

static void write_json(FILE *f)
{
	int score = 0, max = 0;

	for (int l = 0; l < nr_labs; l++) {
		score += lab_score(&lab_results[l]);
		max += lab_max(&lab_results[l]);
	}
	fprintf(f, "{\n  \"score\": %d,\n  \"max_score\": %d,\n", score, max);
	fputs("  \"tests\": [", f);
	for (int l = 0, first = 1; l < nr_labs; l++) {
		const struct lab_result *r = &lab_results[l];

		for (int i = 0; i < r->nr_tests; i++, first = 0) {
			const struct test_result *t = &r->tests[i];
			char name[256];

			snprintf(name, sizeof(name), "lab%s/%s", r->lab, t->name);
			fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
			json_str(f, name);
			fprintf(f, ", \"number\": \"%d.%s%d\", \"score\": %d, \"max_score\": %d, \"status\": \"%s\", \"visibility\": \"%s\", \"output\": ",
				atoi(r->lab), is_hidden(r) ? "h" : "", i + 1,
				t->points, t->max_points, t->passed ? "passed" : "failed",
				is_hidden(r) ? "after_published" : "visible");
			if (t->timeline[0]) {
				char out[LINE_MAX_LEN + 300];

				snprintf(out, sizeof(out), "%s\nTimeline (SVG): %s",
					 t->message, t->timeline);
				json_str(f, out);
			} else {
				json_str(f, t->message);
			}
			fputc('}', f);
		}
	}
	fputs("\n  ],\n  \"extra_data\": {", f);
	if (style[0]) {
		fputs("\"style\": ", f);
		json_str(f, style);
		fputs(", ", f);
	}
	fputs("\"labs\": [", f);
	for (int l = 0; l < nr_labs; l++) {
		const struct lab_result *r = &lab_results[l];

		fprintf(f, "%s\n    {\"lab\": ", l ? "," : "");
		json_str(f, r->lab);
		fputs(", \"title\": ", f);
		json_str(f, r->title);
		fprintf(f, ", \"verdict\": \"%s\", \"score\": %d, \"max_score\": %d, \"output\": ",
			verdict_names[r->verdict], lab_score(r), lab_max(r));
		lab_output(f, r);
		fputc('}', f);
	}
	fputs("\n  ]}\n}\n", f);
}

static void write_junit(FILE *f)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"schedlab\">\n", f);
	for (int l = 0; l < nr_labs; l++) {
		const struct lab_result *r = &lab_results[l];
		int failures = r->nr_tests;

		for (int i = 0; i < r->nr_tests; i++)
			failures -= r->tests[i].passed;
		fprintf(f, "  <testsuite name=\"lab%s\" tests=\"%d\" failures=\"%d\">\n",
			r->lab, r->nr_tests, failures);
		for (int i = 0; i < r->nr_tests; i++) {
			const struct test_result *t = &r->tests[i];

			fprintf(f, "    <testcase classname=\"lab%s\" name=\"", r->lab);
			xml_str(f, t->name);
			if (t->passed) {
				fputs("\"/>\n", f);
				continue;
			}
			fputs("\">\n      <failure message=\"", f);
			xml_str(f, t->message);
			fputs("\"/>\n    </testcase>\n", f);
		}
		fputs("    <system-out>", f);
		xml_str(f, verdict_text(r->verdict));
		for (int i = 0; i < r->nr_excerpt; i++) {
			fputc('\n', f);
			xml_str(f, r->excerpt[i]);
		}
		fputs("</system-out>\n  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

static void write_file(const char *path, void (*fn)(FILE *))
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	fn(f);
	if (fclose(f)) {
		perror(path);
		exit(2);
	}
}

/* The summary line of checkpatch's output ("total: N errors, ..."). */
static void read_style(const char *path)
{
	char line[LINE_MAX_LEN];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "total:", 6))
			clean_copy(style, line, sizeof(style));
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *json = NULL, *junit = NULL, *title = "schedlab results";
	int all_passed = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") && i + 1 < argc) {
			json = argv[++i];
		} else if (!strcmp(argv[i], "--junit") && i + 1 < argc) {
			junit = argv[++i];
		} else if (!strcmp(argv[i], "--title") && i + 1 < argc) {
			title = argv[++i];
		} else if (!strcmp(argv[i], "--style") && i + 1 < argc) {
			read_style(argv[++i]);
		} else {
			FILE *f = fopen(argv[i], "r");

			if (!f || nr_labs == 16 || result_read(f, &lab_results[nr_labs])) {
				fprintf(stderr, "report: cannot read lab result %s\n", argv[i]);
				return 2;
			}
			fclose(f);
			nr_labs++;
		}
	}
	for (int l = 0; l < nr_labs; l++)
		all_passed &= lab_score(&lab_results[l]) == lab_max(&lab_results[l]);
	print_table(stdout, title);
	if (json)
		write_file(json, write_json);
	if (junit)
		write_file(junit, write_junit);
	return all_passed ? 0 : 1;
}
