// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - stage 7 of grading.  The only reader of lab result files
 * (results.h) and the only writer of every format made from them.
 *
 *   report [--title T] [--note TEXT] [--style FILE] [--isolation FILE]
 *          [--changes FILE] [--json OUT] [--junit OUT] [--html OUT] [--durations N]
 *          [--subset TEXT] [--artifacts kept|none] RESULT...
 *	the labs' results: a per-lab, per-test table on standard output,
 *	results.json (Gradescope's autograder format: score, tests; under
 *	extra_data each lab's verdict and each test's duration), JUnit
 *	XML and report.html (one page, timelines inline, no script); --note
 *	is a line about the grading machine for the instructor (the table's
 *	first, results.json's "output"); --artifacts none says that only
 *	results.json leaves this machine (Gradescope): its "output" says
 *	so, and a test's timeline is named by the make grade that draws it
 *	on the student's machine, not by its path here; --style shows
 *	checkpatch's "total:" line, --isolation the
 *	isolation of instructor grading (its file's one line, written by
 *	grade-submission.sh; also under extra_data), --changes the
 *	submission's change map (results.h; under extra_data, "change_map");
 *	--durations lists
 *	the N slowest tests (0: every timed test), as pytest's does;
 *	--subset says that only some tests ran (TEXT names them, as
 *	"TEST=name"): the table, its score line and results.json (under
 *	extra_data, "subset") say so, and the score is of those alone.  A
 *	lab's similarity to 6.1 (a submission's) is shown beside its score,
 *	and in results.json as a test of no points that only instructors
 *	see (Gradescope's "hidden").
 *   report --gradebook-csv OUT --gradebook-json OUT [--class-html OUT] [--class-json OUT]
 *	[--labs "01 02"] DIR...
 *	a class: each DIR is one student's output folder (its lab*.result
 *	files), named after DIR's last component; one row a student, one
 *	score a lab, the total and the worst verdict (not-graded for a lab
 *	with no result), each lab's similarity to 6.1 beside its score, the
 *	isolation its grading ran in (DIR/isolation) and the functions of
 *	6.1 outside the labs its submission changes (DIR/changes.txt).
 *	The CSV is RFC 4180, every cell a spreadsheet would read as a
 *	formula neutralised; --labs adds columns no student has a result
 *	for.  class.html is the class at a glance (histograms, the most
 *	failed tests and what they said, links to each student's
 *	report.html), class.json the same numbers for scripts.
 *   report --fallback LOG --json OUT
 *	the results.json of a submission the grader could not grade: score
 *	0 and the end of LOG.
 *
 * An OUT of "-" is standard output (no table is printed then): a script
 * asks jq of the JSON (report --json - lab01.result | jq ...), never reads
 * a result file itself.  Every output is valid UTF-8 JSON or XML whatever
 * the guest printed.  Exit status (results.h): 0 every test passed on a
 * clean run, 1 not, 2 bad arguments, input or I/O.
 */
#include "results.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LABS	16
#define FALLBACK_LINES	30

static struct lab_result lab_results[MAX_LABS];
static int nr_labs;
static char style[LINE_MAX_LEN];	/* checkpatch's "total:" line */
static char isolation[64];	/* how instructor grading isolated the submission */
static struct change_map changes;	/* what the submission changes outside the labs */
static char note[LINE_MAX_LEN];	/* about the grading machine, for the instructor */
static const char *subset;		/* --subset: only these tests ran */
static int artifacts_kept = 1;	/* --artifacts none: only results.json leaves */

/* results.json's word on the files it cannot carry, with --artifacts none. */
static const char artifacts_note[] =
	"Only this page is kept here: the kernel's console, each test's placement timeline and report.html stay on the grading machine. On your machine, make grade writes them to build/results/ (open report.html in a browser).";
static int status = EXIT_PASSED;

static void fail(int code)
{
	if (code > status)
		status = code;
}

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "report: %s%s%s\n", what, what[0] ? ": " : "", msg);
	exit(EXIT_TOOL_ERROR);
}

/* An instructor's hidden tests of a lab have a lab id like "03h". */
static int is_hidden(const struct lab_result *r)
{
	return r->lab[0] && r->lab[strlen(r->lab) - 1] == 'h';
}

static int read_result(const char *path, struct lab_result *r)
{
	FILE *f = fopen(path, "r");
	int err = !f || result_read(f, r);

	if (f)
		fclose(f);
	return err ? -1 : 0;
}

/* The SVG drawn from @t's trace, if the renderer made one. */
static const char *timeline_of(const struct test_result *t)
{
	static char svg[sizeof(t->trace) + 4];
	size_t n = strlen(t->trace);

	if (n < 6 || strcmp(t->trace + n - 6, ".trace"))
		return NULL;
	snprintf(svg, sizeof(svg), "%.*s.svg", (int)(n - 6), t->trace);
	return access(svg, R_OK) ? NULL : svg;
}

/*
 * The share of a submission's lines for a lab that are 6.1's, in percent;
 * -1 when there is none (not a submission's result, or no line written in
 * the lab's functions).
 */
static int similarity_percent(const struct similarity *s)
{
	return s->measured && s->counted ? 100 * s->matched / s->counted : -1;
}

/* The similarity, said in words ("" when not measured). */
static const char *similarity_text(const struct similarity *s)
{
	static char buf[160];

	if (!s->measured)
		buf[0] = '\0';
	else if (!s->counted)
		snprintf(buf, sizeof(buf), "similarity to 6.1: none (no line written in the lab's functions)");
	else
		snprintf(buf, sizeof(buf), "similarity to 6.1: %d%% (%d of %d lines, not scored)",
			 similarity_percent(s), s->matched, s->counted);
	return buf;
}

static void similarity_json(FILE *f, const struct similarity *s)
{
	if (!s->measured) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"matched\": %d, \"counted\": %d, \"percent\": ", s->matched, s->counted);
	if (s->counted)
		fprintf(f, "%d}", similarity_percent(s));
	else
		fputs("null}", f);
}

/* ---- the labs' results ---------------------------------------------- */

struct timed {
	const struct lab_result *r;
	const struct test_result *t;
};

static int slower_first(const void *a, const void *b)
{
	const struct test_result *x = ((const struct timed *)a)->t;
	const struct test_result *y = ((const struct timed *)b)->t;

	if (x->duration_us != y->duration_us)
		return x->duration_us < y->duration_us ? 1 : -1;
	return x < y ? -1 : x > y;	/* ties in the order of the results */
}

/* The @n slowest tests (0: all), as pytest's --durations lists them. */
static void print_durations(FILE *f, int n)
{
	static struct timed timed[MAX_LABS * MAX_TESTS];
	int nr = 0;

	for (int l = 0; l < nr_labs; l++)
		for (int i = 0; i < lab_results[l].nr_tests; i++)
			if (lab_results[l].tests[i].duration_us >= 0)
				timed[nr++] = (struct timed){ &lab_results[l], &lab_results[l].tests[i] };
	if (!nr) {
		fputs("\nno test durations were recorded\n", f);
		return;
	}
	qsort(timed, nr, sizeof(timed[0]), slower_first);
	if (n == 0 || n > nr)
		n = nr;
	fprintf(f, "\nslowest %d of %d timed tests:\n", n, nr);
	for (int i = 0; i < n; i++)
		fprintf(f, "  %9.3f s  lab%s/%s\n", timed[i].t->duration_us / 1e6,
			timed[i].r->lab, timed[i].t->name);
}

/* The submission's change map, if it has one. */
static void print_changes(FILE *f)
{
	if (!changes.read)
		return;
	if (!changes.n) {
		fputs("change map (not scored): only the labs' functions\n", f);
		return;
	}
	fputs("change map (not scored; for review, grader/README.md):\n", f);
	for (int i = 0; i < changes.n; i++)
		fprintf(f, "  %-9s %s\n", change_kinds[changes.kind[i]], changes.where[i]);
	if (changes.more)
		fprintf(f, "  and %d more\n", changes.more);
}

/* The change map under results.json's extra_data: a list of each kind. */
static void changes_json(FILE *f)
{
	fputs("\"change_map\": {", f);
	for (int k = 0; k < CH_NR; k++) {
		int first = 1;

		fprintf(f, "%s\"%s\": [", k ? ", " : "", change_kinds[k]);
		for (int i = 0; i < changes.n; i++) {
			if (changes.kind[i] != (enum change_kind)k)
				continue;
			fputs(first ? "" : ", ", f);
			json_str(f, changes.where[i]);
			first = 0;
		}
		fputc(']', f);
	}
	fprintf(f, ", \"more\": %d}, ", changes.more);
}

static void print_table(FILE *f, const char *title, int durations)
{
	int score = 0, max = 0, undecided = 0;

	fprintf(f, "\n== %s ==\n", title);
	if (note[0])
		fprintf(f, "note: %s\n", note);
	if (subset)
		fprintf(f, "only %s ran: the score counts it alone\n", subset);
	for (int l = 0; l < nr_labs; l++) {
		const struct lab_result *r = &lab_results[l];

		fprintf(f, "\nlab %s  %-38s %3d/%-3d %s%s%s\n", r->lab, r->title,
			lab_score(r), lab_max(r),
			r->verdict == V_OK ? "" : verdict_text(r->verdict),
			r->verdict != V_OK && r->similarity.measured ? "; " : "",
			similarity_text(&r->similarity));
		if (r->detail[0])
			fprintf(f, "        %s\n", r->detail);
		for (int i = 0; i < r->nr_tests; i++) {
			const struct test_result *t = &r->tests[i];
			const char *svg = timeline_of(t);

			fprintf(f, "  %s  %-40s %d/%d", t->passed ? "PASS" : t->undecided ? "SKIP" : "FAIL",
				t->name, t->points, t->max_points);
			if (!t->passed)
				fprintf(f, "  %s", t->message);
			fputc('\n', f);
			if (svg)
				fprintf(f, "        timeline: %s\n", svg);
		}
		if (r->nr_excerpt) {
			fprintf(f, "  -- what the %s showed --\n",
				r->verdict >= V_NO_APPLY ? "log" : "console");
			for (int i = 0; i < r->nr_excerpt; i++)
				fprintf(f, "  | %s\n", r->excerpt[i]);
		}
		score += lab_score(r);
		max += lab_max(r);
		undecided += lab_undecided(r);
	}
	if (undecided)
		fprintf(f, "\n%d test(s) not scored: the grading machine could not decide them (SKIP); grade again on a faster machine\n",
			undecided);
	if (durations >= 0)
		print_durations(f, durations);
	if (style[0])
		fprintf(f, "\nstyle (checkpatch, not scored): %s\n", style);
	if (isolation[0])
		fprintf(f, "isolation of the submission's stages: %s (grader/README.md)\n", isolation);
	print_changes(f);
	fprintf(f, "\nscore: %d/%d%s%s%s\n", score, max, subset ? " (" : "",
		subset ? subset : "", subset ? " only)" : "");
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

/*
 * A lab's similarity as a Gradescope test of no points, for the
 * instructor: Gradescope never shows students a "hidden" test.
 */
static void similarity_test(FILE *f, const struct lab_result *r)
{
	char name[sizeof(r->lab) + 48], out[512];

	snprintf(name, sizeof(name), "lab%.*s/similarity to Linux 6.1 (not scored)",
		 (int)sizeof(r->lab), r->lab);
	snprintf(out, sizeof(out), "%s: of the lines the submission adds inside the functions the lab's starter hollowed out, the share identical (whitespace aside) to lines the starter removed from Linux 6.1",
		 similarity_text(&r->similarity));
	fputs("\n    {\"name\": ", f);
	json_str(f, name);
	fputs(", \"score\": 0, \"max_score\": 0, \"visibility\": \"hidden\", \"output\": ", f);
	json_str(f, out);
	fputs(", \"extra_data\": {\"lab\": ", f);
	json_str(f, r->lab);
	fputs(", \"similarity\": ", f);
	similarity_json(f, &r->similarity);
	fputs("}}", f);
}

static void write_json(FILE *f)
{
	int score = 0, max = 0;

	for (int l = 0; l < nr_labs; l++) {
		score += lab_score(&lab_results[l]);
		max += lab_max(&lab_results[l]);
	}
	fprintf(f, "{\n  \"score\": %d,\n  \"max_score\": %d,\n", score, max);
	if (note[0] || !artifacts_kept) {
		char out[sizeof(note) + sizeof(artifacts_note) + 2];

		snprintf(out, sizeof(out), "%s%s%s", note, note[0] && !artifacts_kept ? "\n" : "",
			 artifacts_kept ? "" : artifacts_note);
		fputs("  \"output\": ", f);
		json_str(f, out);
		fputs(",\n", f);
	}
	fputs("  \"tests\": [", f);
	for (int l = 0, first = 1; l < nr_labs; l++) {
		const struct lab_result *r = &lab_results[l];

		for (int i = 0; i < r->nr_tests; i++, first = 0) {
			const struct test_result *t = &r->tests[i];
			const char *svg = timeline_of(t);
			char name[256];

			snprintf(name, sizeof(name), "lab%.*s/%s", (int)sizeof(r->lab), r->lab, t->name);
			fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
			json_str(f, name);
			/* An undecided test is neither (Gradescope: no status). */
			fprintf(f, ", \"number\": \"%d.%s%d\", \"score\": %d, \"max_score\": %d, %s%s%s\"visibility\": \"%s\", \"output\": ",
				atoi(r->lab), is_hidden(r) ? "h" : "", i + 1,
				t->points, t->max_points, t->undecided ? "" : "\"status\": \"",
				t->undecided ? "" : t->passed ? "passed" : "failed",
				t->undecided ? "" : "\", ",
				is_hidden(r) ? "after_published" : "visible");
			if (svg) {
				char out[LINE_MAX_LEN + 600];
				const char *slash = strrchr(svg, '/');

				if (artifacts_kept)
					snprintf(out, sizeof(out), "%s\nTimeline (SVG): %s",
						 t->message, svg);
				else if (!is_hidden(r))
					snprintf(out, sizeof(out), "%s\nTimeline: not kept here; on your machine, make grade LAB=%d TEST=%s draws it (build/results/%s)",
						 t->message, atoi(r->lab), t->name, slash ? slash + 1 : svg);
				else
					snprintf(out, sizeof(out), "%s", t->message);
				json_str(f, out);
			} else {
				json_str(f, t->message);
			}
			fputs(", \"extra_data\": {\"lab\": ", f);
			json_str(f, r->lab);
			fputs(", \"test\": ", f);
			json_str(f, t->name);
			if (t->duration_us >= 0)
				fprintf(f, ", \"duration_us\": %lld", t->duration_us);
			if (t->undecided)
				fputs(", \"undecided\": true", f);
			fputs("}}", f);
		}
		if (r->similarity.measured) {
			fputs(first ? "" : ",", f);
			similarity_test(f, r);
			first = 0;
		}
	}
	fputs("\n  ],\n  \"extra_data\": {", f);
	if (subset) {
		fputs("\"subset\": ", f);
		json_str(f, subset);
		fputs(", ", f);
	}
	if (style[0]) {
		fputs("\"style\": ", f);
		json_str(f, style);
		fputs(", ", f);
	}
	if (isolation[0]) {
		fputs("\"isolation\": ", f);
		json_str(f, isolation);
		fputs(", ", f);
	}
	if (changes.read)
		changes_json(f);
	fputs("\"labs\": [", f);
	for (int l = 0; l < nr_labs; l++) {
		const struct lab_result *r = &lab_results[l];

		fprintf(f, "%s\n    {\"lab\": ", l ? "," : "");
		json_str(f, r->lab);
		fputs(", \"title\": ", f);
		json_str(f, r->title);
		fprintf(f, ", \"verdict\": \"%s\", \"score\": %d, \"max_score\": %d, \"detail\": ",
			verdict_names[r->verdict], lab_score(r), lab_max(r));
		json_str(f, r->detail);
		if (r->similarity.measured) {
			fputs(", \"similarity\": ", f);
			similarity_json(f, &r->similarity);
		}
		fputs(", \"output\": ", f);
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
		int failures = r->nr_tests, skipped = 0;

		for (int i = 0; i < r->nr_tests; i++) {
			failures -= r->tests[i].passed || r->tests[i].undecided;
			skipped += r->tests[i].undecided;
		}
		fputs("  <testsuite name=\"lab", f);
		xml_str(f, r->lab);
		fprintf(f, "\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
			r->nr_tests, failures, skipped);
		for (int i = 0; i < r->nr_tests; i++) {
			const struct test_result *t = &r->tests[i];

			fputs("    <testcase classname=\"lab", f);
			xml_str(f, r->lab);
			fputs("\" name=\"", f);
			xml_str(f, t->name);
			if (t->duration_us >= 0)
				fprintf(f, "\" time=\"%.6f", t->duration_us / 1e6);
			if (t->passed) {
				fputs("\"/>\n", f);
				continue;
			}
			fprintf(f, "\">\n      <%s message=\"", t->undecided ? "skipped" : "failure");
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

/* @path's bytes as base64 (a timeline's SVG, for a data: URL); 0 or -1. */
static int base64_file(FILE *f, const char *path)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char in[3];
	FILE *svg = fopen(path, "rb");
	size_t n;

	if (!svg)
		return -1;
	while ((n = fread(in, 1, 3, svg)) > 0) {
		unsigned long v = in[0] << 16 | (n > 1 ? in[1] << 8 : 0) | (n > 2 ? in[2] : 0);

		fputc(digits[v >> 18 & 63], f);
		fputc(digits[v >> 12 & 63], f);
		fputc(n > 1 ? digits[v >> 6 & 63] : '=', f);
		fputc(n > 2 ? digits[v & 63] : '=', f);
	}
	fclose(svg);
	return 0;
}

static const char *html_title = "schedlab results";

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<style>\n"
	"body { font: 15px/1.45 system-ui, sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em; color: #1d1d1d; }\n"
	"table { border-collapse: collapse; width: 100%; margin: .5em 0 1.5em; }\n"
	"th, td { text-align: left; vertical-align: top; padding: .3em .6em; border-bottom: 1px solid #ddd; }\n"
	".msg, pre { white-space: pre-wrap; overflow-wrap: anywhere; }\n"
	"pre { background: #f5f5f5; padding: .6em; font-size: 13px; }\n"
	".pass { color: #13692a; font-weight: 600; } .fail { color: #b3001b; font-weight: 600; }\n"
	".skip { color: #7a5d00; font-weight: 600; } .note { color: #555; }\n"
	"img.timeline { display: block; width: 100%; max-width: 60em; margin-top: .5em; border: 1px solid #ddd; }\n"
	"</style>\n";

static void html_text(FILE *f, const char *tag, const char *cls, const char *text)
{
	fprintf(f, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_str(f, text);
	fprintf(f, "</%s>\n", tag);
}

/* "lab NN TITLE", as the page names a lab */
static void html_lab_name(FILE *f, const struct lab_result *r)
{
	fputs("lab ", f);
	html_str(f, r->lab);
	fputc(' ', f);
	html_str(f, r->title);
}

/* "labNN/TEST", as class.html names a test */
static void html_test_name(FILE *f, const char *lab, const char *test)
{
	fputs("lab", f);
	html_str(f, lab);
	fputc('/', f);
	html_str(f, test);
}

static void html_lab(FILE *f, const struct lab_result *r)
{
	char line[LINE_MAX_LEN + 64];

	fputs("<div class=\"lab\" id=\"lab", f);
	html_str(f, r->lab);
	fputs("\">\n<h2>", f);
	html_lab_name(f, r);
	fprintf(f, ": %d/%d</h2>\n", lab_score(r), lab_max(r));
	if (r->verdict != V_OK || r->detail[0]) {
		snprintf(line, sizeof(line), "%s%s%s", r->verdict == V_OK ? "" : verdict_text(r->verdict),
			 r->verdict != V_OK && r->detail[0] ? ": " : "", r->detail);
		html_text(f, "p", r->verdict == V_OK ? "note" : "fail", line);
	}
	if (r->similarity.measured)
		html_text(f, "p", "note", similarity_text(&r->similarity));
	if (r->nr_excerpt) {
		fprintf(f, "<p>What the %s showed:</p>\n<pre>", r->verdict >= V_NO_APPLY ? "log" : "console");
		for (int i = 0; i < r->nr_excerpt; i++) {
			html_str(f, r->excerpt[i]);
			fputc('\n', f);
		}
		fputs("</pre>\n", f);
	}
	fputs("<table>\n<tr><th>test</th><th>result</th><th>time</th><th>what it saw</th></tr>\n", f);
	for (int i = 0; i < r->nr_tests; i++) {
		const struct test_result *t = &r->tests[i];
		const char *svg = timeline_of(t);

		fputs("<tr id=\"lab", f);
		html_str(f, r->lab);
		fputc('-', f);
		html_str(f, t->name);
		fputs("\"><td>", f);
		html_str(f, t->name);
		fprintf(f, "</td><td class=\"%s\">%s %d/%d</td><td>",
			t->passed ? "pass" : t->undecided ? "skip" : "fail",
			t->passed ? "PASS" : t->undecided ? "SKIP" : "FAIL", t->points, t->max_points);
		if (t->duration_us >= 0)
			fprintf(f, "%.2f s", t->duration_us / 1e6);
		fputs("</td><td class=\"msg\">", f);
		if (!t->passed)
			html_str(f, t->message);
		if (svg) {
			fputs("<img class=\"timeline\" alt=\"where the test's tasks ran: ", f);
			html_str(f, t->name);
			fputs("\" src=\"data:image/svg+xml;base64,", f);
			if (base64_file(f, svg))
				die(svg, "cannot read");
			fputs("\">", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n</div>\n", f);
}

/*
 * report.html: the table's contents as one page a browser opens with no
 * network, no script and no other file: every text the guest or the
 * submission made through html_str(), every timeline inline (an image,
 * from a data: URL, which a browser never runs a script of).
 */
static void write_html(FILE *f)
{
	char line[LINE_MAX_LEN + 64];
	int score = 0, max = 0;

	for (int l = 0; l < nr_labs; l++) {
		score += lab_score(&lab_results[l]);
		max += lab_max(&lab_results[l]);
	}
	fputs(html_head, f);
	html_text(f, "title", NULL, html_title);
	fputs("</head>\n<body>\n", f);
	html_text(f, "h1", NULL, html_title);
	snprintf(line, sizeof(line), "score: %d/%d%s%s%s", score, max, subset ? " (" : "",
		 subset ? subset : "", subset ? " only)" : "");
	html_text(f, "p", score == max ? "pass" : "fail", line);
	if (note[0])
		html_text(f, "p", "note", note);
	fputs("<table>\n<tr><th>lab</th><th>score</th><th>verdict</th></tr>\n", f);
	for (int l = 0; l < nr_labs; l++) {
		const struct lab_result *r = &lab_results[l];

		fputs("<tr><td><a href=\"#lab", f);
		html_str(f, r->lab);
		fputs("\">", f);
		html_lab_name(f, r);
		fprintf(f, "</a></td><td class=\"%s\">%d/%d</td><td>", lab_passed(r) ? "pass" : "fail",
			lab_score(r), lab_max(r));
		html_str(f, verdict_text(r->verdict));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	for (int l = 0; l < nr_labs; l++)
		html_lab(f, &lab_results[l]);
	if (style[0]) {
		snprintf(line, sizeof(line), "style (checkpatch, not scored): %s", style);
		html_text(f, "p", "note", line);
	}
	if (isolation[0]) {
		snprintf(line, sizeof(line), "isolation of the submission's stages: %s", isolation);
		html_text(f, "p", "note", line);
	}
	if (changes.read) {
		fputs("<h2>Change map (not scored; for review)</h2>\n<table>\n", f);
		if (!changes.n)
			fputs("<tr><td>only the labs' functions</td></tr>\n", f);
		for (int i = 0; i < changes.n; i++) {
			fprintf(f, "<tr><td>%s</td><td>", change_kinds[changes.kind[i]]);
			html_str(f, changes.where[i]);
			fputs("</td></tr>\n", f);
		}
		if (changes.more)
			fprintf(f, "<tr><td>and %d more</td></tr>\n", changes.more);
		fputs("</table>\n", f);
	}
	fputs("</body>\n</html>\n", f);
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

/*
 * The isolation instructor grading ran a submission's stages in: the
 * first line of @path (grade-submission.sh writes it; "" when it has none).
 */
static void read_isolation(const char *path, char *buf, size_t n)
{
	char line[LINE_MAX_LEN];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f))
		clean_copy(buf, line, n);
	fclose(f);
}

/* ---- a class: the gradebook ----------------------------------------- */

#define MAX_COLS	32

struct cell {
	char lab[8];
	int score, max;
	enum verdict verdict;
	struct similarity similarity;
	int undecided;		/* tests not scored: the grading machine's */
};

struct student {
	const char *name;	/* as the folder is named */
	char isolation[64];	/* its folder's isolation file, or "" */
	struct change_map changes;	/* its folder's changes.txt */
	int nr_cells;
	struct cell cells[MAX_COLS];
};

static struct student *students;
static int nr_students;
static char cols[MAX_COLS][8];
static int nr_cols, col_max[MAX_COLS];

/*
 * The class's failures, for class.html: for each test, how many students
 * ran it and how many failed it, and the distinct messages (numbers made
 * "#", so that one mistake is one group), each with how many students got
 * it and the first of them.
 */
#define MAX_CLASS_TESTS	512
#define MAX_GROUPS	6
#define MAX_NAMED	5
struct failure_group {
	char message[256];
	int count;
	int who[MAX_NAMED];	/* students[] indices */
};
struct class_test {
	char lab[8], name[128];
	int ran, failed, other;	/* other: failures past MAX_GROUPS groups */
	struct failure_group group[MAX_GROUPS];
	int nr_groups;
};
static struct class_test class_tests[MAX_CLASS_TESTS];
static int nr_class_tests;

/* @msg with every run of digits made "#", cut to @n bytes (whole characters). */
static void normalise(char *dst, const char *msg, size_t n)
{
	char tmp[LINE_MAX_LEN];
	size_t o = 0;

	for (const char *p = msg; *p && o + 1 < sizeof(tmp); p++) {
		if (*p >= '0' && *p <= '9') {
			if (!o || tmp[o - 1] != '#')
				tmp[o++] = '#';
			continue;
		}
		tmp[o++] = *p;
	}
	tmp[o] = '\0';
	clean_copy(dst, tmp, n);
}

static void class_add(int student, const struct lab_result *r)
{
	for (int i = 0; i < r->nr_tests; i++) {
		const struct test_result *t = &r->tests[i];
		struct class_test *ct = NULL;
		char msg[256];
		int g;

		if (t->undecided)
			continue;
		for (int k = 0; k < nr_class_tests && !ct; k++)
			if (!strcmp(class_tests[k].lab, r->lab) && !strcmp(class_tests[k].name, t->name))
				ct = &class_tests[k];
		if (!ct) {
			if (nr_class_tests == MAX_CLASS_TESTS)
				return;
			ct = &class_tests[nr_class_tests++];
			snprintf(ct->lab, sizeof(ct->lab), "%s", r->lab);
			snprintf(ct->name, sizeof(ct->name), "%s", t->name);
		}
		ct->ran++;
		if (t->passed)
			continue;
		ct->failed++;
		normalise(msg, t->message, sizeof(msg));
		for (g = 0; g < ct->nr_groups && strcmp(ct->group[g].message, msg); g++)
			;
		if (g == ct->nr_groups) {
			if (g == MAX_GROUPS) {
				ct->other++;
				continue;
			}
			snprintf(ct->group[g].message, sizeof(ct->group[g].message), "%s", msg);
			ct->nr_groups++;
		}
		if (ct->group[g].count < MAX_NAMED)
			ct->group[g].who[ct->group[g].count] = student;
		ct->group[g].count++;
	}
}

static int col_of(const char *lab)
{
	for (int c = 0; c < nr_cols; c++)
		if (!strcmp(cols[c], lab))
			return c;
	if (nr_cols == MAX_COLS)
		die(lab, "too many labs for one gradebook");
	clean_copy(cols[nr_cols], lab, sizeof(cols[0]));
	return nr_cols++;
}

/* The index of @s's cell of @lab, or -1. */
static int cell_of(const struct student *s, const char *lab)
{
	for (int i = 0; i < s->nr_cells; i++)
		if (!strcmp(s->cells[i].lab, lab))
			return i;
	return -1;
}

static void add_cell(struct student *s, const char *lab, int score, int max, enum verdict v,
		     const struct similarity *sim, int undecided)
{
	int i = cell_of(s, lab);
	struct cell *c;

	if (i < 0) {
		if (s->nr_cells == MAX_COLS)
			return;
		i = s->nr_cells++;
	}
	c = &s->cells[i];
	clean_copy(c->lab, lab, sizeof(c->lab));
	c->score = score, c->max = max, c->verdict = v;
	c->similarity = sim ? *sim : (struct similarity){ 0 };
	c->undecided = undecided;
	col_of(c->lab);
}

/* One student's folder: every lab*.result in it. */
static void read_student(struct student *s, const char *dir)
{
	static struct lab_result r;
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, "report: %s: no results (not graded)\n", dir);
		return;
	}
	snprintf(path, sizeof(path), "%s/isolation", dir);
	read_isolation(path, s->isolation, sizeof(s->isolation));
	snprintf(path, sizeof(path), "%s/changes.txt", dir);
	if (change_map_read(path, &s->changes)) {
		fprintf(stderr, "report: cannot read the change map %s\n", path);
		fail(EXIT_TOOL_ERROR);
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char lab[8];

		if (strncmp(e->d_name, "lab", 3) || n < 11 || n > 3 + 7 + 7 ||
		    strcmp(e->d_name + n - 7, ".result"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (read_result(path, &r)) {
			/* Its lab is not graded, and the gradebook says so. */
			fprintf(stderr, "report: cannot read lab result %s\n", path);
			fail(EXIT_TOOL_ERROR);
			snprintf(lab, sizeof(lab), "%.*s", (int)(n - 10), e->d_name + 3);
			add_cell(s, lab, 0, 0, V_NOT_GRADED, NULL, 0);
			continue;
		}
		add_cell(s, r.lab, lab_score(&r), lab_max(&r), r.verdict, &r.similarity,
			 lab_undecided(&r));
		class_add(s - students, &r);
	}
	closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The student's cell for column @c; a lab with no result is not-graded. */
static struct cell student_cell(const struct student *s, int c)
{
	int i = cell_of(s, cols[c]);

	if (i >= 0 && s->cells[i].verdict != V_NOT_GRADED)
		return s->cells[i];
	return (struct cell){ .score = 0, .max = col_max[c], .verdict = V_NOT_GRADED };
}

/* The tests of a student's row not scored (undecided). */
static int student_undecided(const struct student *s)
{
	int n = 0;

	for (int c = 0; c < nr_cols; c++)
		n += student_cell(s, c).undecided;
	return n;
}

/* Total, max and worst verdict of a student's row. */
static enum verdict student_sum(const struct student *s, int *total, int *max)
{
	enum verdict worst = V_OK;

	*total = *max = 0;
	for (int c = 0; c < nr_cols; c++) {
		struct cell cell = student_cell(s, c);

		*total += cell.score;
		*max += cell.max;
		if (cell.verdict > worst)
			worst = cell.verdict;
	}
	return worst;
}

/*
 * One CSV field (RFC 4180), always quoted, as valid UTF-8 (tabs and line
 * breaks kept, other control characters replaced); text a spreadsheet
 * would take for a formula (= + - @ tab CR first) gets a leading quote.
 */
static void csv_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	if (*s && strchr("=+-@\t\r", *s))
		fputc('\'', f);
	while (*s) {
		unsigned int cp;
		int len = utf8_char(s, &cp);

		if (!len || (cp < 0x20 && !strchr("\t\n\r", cp)) || cp == 0x7f)
			fputs(REPLACEMENT_CHAR, f), len = len ? len : 1;
		else if (cp == '"')
			fputs("\"\"", f);
		else
			fwrite(s, 1, len, f);
		s += len;
	}
	fputc('"', f);
}

/* The functions of 6.1 outside the labs a student's submission changes. */
static const char *changed_outside(const struct student *s)
{
	static char buf[MAX_CHANGES * 258];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < s->changes.n && n < sizeof(buf); i++)
		if (s->changes.kind[i] == CH_CHANGED)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " " : "", s->changes.where[i]);
	return buf;
}

static void write_csv(FILE *f)
{
	fputs("student", f);
	for (int c = 0; c < nr_cols; c++)
		fprintf(f, ",lab%s,lab%s similarity %%", cols[c], cols[c]);
	fputs(",total,max,status,undecided tests,isolation,changed outside the labs\r\n", f);
	for (int i = 0; i < nr_students; i++) {
		const struct student *s = &students[i];
		int total, max;
		enum verdict worst = student_sum(s, &total, &max);

		csv_str(f, s->name);
		for (int c = 0; c < nr_cols; c++) {
			struct cell cell = student_cell(s, c);
			int pct = similarity_percent(&cell.similarity);

			fprintf(f, ",%d,", cell.score);
			if (pct >= 0)
				fprintf(f, "%d", pct);
		}
		fprintf(f, ",%d,%d,%s,%d,", total, max, verdict_names[worst], student_undecided(s));
		csv_str(f, s->isolation);
		fputc(',', f);
		csv_str(f, changed_outside(s));
		fputs("\r\n", f);
	}
}

static void write_gradebook_json(FILE *f)
{
	fputs("[", f);
	for (int i = 0; i < nr_students; i++) {
		const struct student *s = &students[i];
		int total, max;
		enum verdict worst = student_sum(s, &total, &max);

		fprintf(f, "%s\n  {\"student\": ", i ? "," : "");
		json_str(f, s->name);
		fprintf(f, ", \"total\": %d, \"max_score\": %d, \"status\": \"%s\", \"undecided\": %d, \"isolation\": ",
			total, max, verdict_names[worst], student_undecided(s));
		json_str(f, s->isolation);
		fputs(", \"changed_outside\": [", f);
		for (int j = 0, first = 1; j < s->changes.n; j++) {
			if (s->changes.kind[j] != CH_CHANGED)
				continue;
			fputs(first ? "" : ", ", f);
			json_str(f, s->changes.where[j]);
			first = 0;
		}
		fputs("], \"labs\": {", f);
		for (int c = 0; c < nr_cols; c++) {
			struct cell cell = student_cell(s, c);

			fprintf(f, "%s\"lab%s\": {\"score\": %d, \"max_score\": %d, \"verdict\": \"%s\", \"similarity\": ",
				c ? ", " : "", cols[c], cell.score, cell.max,
				verdict_names[cell.verdict]);
			similarity_json(f, &cell.similarity);
			fputc('}', f);
		}
		fputs("}}", f);
	}
	fputs("\n]\n", f);
}

/* @s as one component of a relative URL: unreserved characters as they are, others %XX. */
static void url_component(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~", *p))
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
	}
}

/* A bar of @n of @of, @w em at most. */
static void html_bar(FILE *f, int n, int of)
{
	fprintf(f, "<span class=\"bar\" style=\"width: %.2fem\"></span> %d", of ? 12.0 * n / of : 0, n);
}

static int most_failed(const void *a, const void *b)
{
	const struct class_test *x = a, *y = b;

	if (x->failed != y->failed)
		return y->failed - x->failed;
	return strcmp(x->lab, y->lab) ? strcmp(x->lab, y->lab) : strcmp(x->name, y->name);
}

static int by_count(const void *a, const void *b)
{
	return ((const struct failure_group *)b)->count - ((const struct failure_group *)a)->count;
}

/* Lab column @c's scores: @hist[score] students, scores clamped to 0..MAX_TESTS. */
static void class_histogram(int c, int hist[MAX_TESTS + 1])
{
	memset(hist, 0, (MAX_TESTS + 1) * sizeof(*hist));
	for (int i = 0; i < nr_students; i++) {
		int sc = student_cell(&students[i], c).score;

		hist[sc < 0 ? 0 : sc > MAX_TESTS ? MAX_TESTS : sc]++;
	}
}

/* How many of the students' labs got each verdict. */
static void class_verdicts(int verdicts[V_NR])
{
	memset(verdicts, 0, V_NR * sizeof(*verdicts));
	for (int i = 0; i < nr_students; i++)
		for (int c = 0; c < nr_cols; c++)
			verdicts[student_cell(&students[i], c).verdict]++;
}

/* The class's tests, most failed first, and each one's messages, most got first. */
static void class_sort(void)
{
	qsort(class_tests, nr_class_tests, sizeof(class_tests[0]), most_failed);
	for (int k = 0; k < nr_class_tests; k++)
		qsort(class_tests[k].group, class_tests[k].nr_groups,
		      sizeof(class_tests[k].group[0]), by_count);
}

/*
 * class.json: what class.html shows, for scripts: each lab's histogram,
 * the verdicts, and every test with how many ran and failed it and its
 * distinct messages (numbers as "#"), each with how many students got it
 * and the first of them by name.
 */
static void write_class_json(FILE *f)
{
	int verdicts[V_NR], hist[MAX_TESTS + 1];

	fprintf(f, "{\n  \"students\": %d,\n  \"labs\": [", nr_students);
	for (int c = 0; c < nr_cols; c++) {
		class_histogram(c, hist);
		fprintf(f, "%s\n    {\"lab\": \"%s\", \"max_score\": %d, \"histogram\": [",
			c ? "," : "", cols[c], col_max[c]);
		for (int sc = 0, first = 1; sc <= col_max[c] && sc <= MAX_TESTS; sc++, first = 0)
			fprintf(f, "%s{\"score\": %d, \"students\": %d}", first ? "" : ", ", sc, hist[sc]);
		fputs("]}", f);
	}
	fputs("\n  ],\n  \"verdicts\": {", f);
	class_verdicts(verdicts);
	for (int v = 0, first = 1; v < V_NR; v++) {
		if (!verdicts[v])
			continue;
		fprintf(f, "%s\"%s\": %d", first ? "" : ", ", verdict_names[v], verdicts[v]);
		first = 0;
	}
	fputs("},\n  \"tests\": [", f);
	for (int k = 0; k < nr_class_tests; k++) {
		const struct class_test *ct = &class_tests[k];

		fprintf(f, "%s\n    {\"lab\": \"%s\", \"test\": ", k ? "," : "", ct->lab);
		json_str(f, ct->name);
		fprintf(f, ", \"ran\": %d, \"failed\": %d, \"other_messages\": %d, \"messages\": [",
			ct->ran, ct->failed, ct->other);
		for (int g = 0; g < ct->nr_groups; g++) {
			const struct failure_group *fg = &ct->group[g];

			fputs(g ? ", {\"message\": " : "{\"message\": ", f);
			json_str(f, fg->message);
			fprintf(f, ", \"students\": %d, \"first\": [", fg->count);
			for (int w = 0; w < fg->count && w < MAX_NAMED; w++) {
				fputs(w ? ", " : "", f);
				json_str(f, students[fg->who[w]].name);
			}
			fputs("]}", f);
		}
		fputs("]}", f);
	}
	fputs("\n  ]\n}\n", f);
}

/*
 * class.html: the class at a glance, from the same results as the
 * gradebook (its numbers are the gradebook's): each lab's scores as a
 * histogram; each test's share of the class that failed it, most failed
 * first; for those, the distinct messages with how many students got each
 * and links to the first ones' report.html (STUDENT/report.html, beside
 * this page); the verdicts; each student's row, with what the review
 * should look at (functions changed outside the labs, similarity).  No
 * script, nothing fetched.
 */
static void write_class_html(FILE *f)
{
	int verdicts[V_NR], hist[MAX_TESTS + 1];

	fputs(html_head, f);
	fputs("<style>\n.bar { display: inline-block; height: .8em; background: #4a6fa5; vertical-align: middle; }\n</style>\n", f);
	fputs("<title>schedlab: the class</title>\n</head>\n<body>\n", f);
	fprintf(f, "<h1>The class: %d student(s)</h1>\n", nr_students);
	for (int c = 0; c < nr_cols; c++) {
		int max = col_max[c];

		class_histogram(c, hist);
		fprintf(f, "<h2>lab %s: scores</h2>\n<table>\n<tr><th>score</th><th>students</th></tr>\n", cols[c]);
		for (int sc = max; sc >= 0; sc--) {
			fprintf(f, "<tr><td>%d/%d</td><td>", sc, max);
			html_bar(f, hist[sc], nr_students);
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	fputs("<h2>Verdicts (a student's lab each)</h2>\n<table>\n", f);
	class_verdicts(verdicts);
	for (int v = 0; v < V_NR; v++) {
		if (!verdicts[v])
			continue;
		fprintf(f, "<tr><td>%s</td><td>", verdict_names[v]);
		html_str(f, verdict_text(v));
		fprintf(f, "</td><td>%d</td></tr>\n", verdicts[v]);
	}
	fputs("</table>\n", f);
	fputs("<h2>Tests, most failed first</h2>\n<table>\n<tr><th>test</th><th>failed</th><th>of</th></tr>\n", f);
	for (int k = 0; k < nr_class_tests; k++) {
		const struct class_test *ct = &class_tests[k];

		fputs("<tr><td>", f);
		html_test_name(f, ct->lab, ct->name);
		fputs("</td><td>", f);
		html_bar(f, ct->failed, ct->ran);
		fprintf(f, "</td><td>%d</td></tr>\n", ct->ran);
	}
	fputs("</table>\n<h2>What the most failed tests said</h2>\n", f);
	for (int k = 0; k < nr_class_tests && k < 10 && class_tests[k].failed; k++) {
		const struct class_test *ct = &class_tests[k];

		fputs("<h3>", f);
		html_test_name(f, ct->lab, ct->name);
		fprintf(f, ": %d of %d failed</h3>\n<table>\n<tr><th>students</th><th>message (numbers as #)</th><th>first of them</th></tr>\n",
			ct->failed, ct->ran);
		for (int g = 0; g < ct->nr_groups; g++) {
			const struct failure_group *fg = &ct->group[g];

			fprintf(f, "<tr><td>%d</td><td class=\"msg\">", fg->count);
			html_str(f, fg->message);
			fputs("</td><td>", f);
			for (int w = 0; w < fg->count && w < MAX_NAMED; w++) {
				const char *who = students[fg->who[w]].name;

				fputs(w ? ", <a href=\"" : "<a href=\"", f);
				url_component(f, who);
				fputs("/report.html#lab", f);
				url_component(f, ct->lab);
				fputc('-', f);
				url_component(f, ct->name);
				fputs("\">", f);
				html_str(f, who);
				fputs("</a>", f);
			}
			fputs("</td></tr>\n", f);
		}
		if (ct->other)
			fprintf(f, "<tr><td>%d</td><td>other messages</td><td></td></tr>\n", ct->other);
		fputs("</table>\n", f);
	}
	fputs("<h2>Students</h2>\n<table>\n<tr><th>student</th><th>total</th><th>worst verdict</th>", f);
	for (int c = 0; c < nr_cols; c++)
		fprintf(f, "<th>lab %s</th>", cols[c]);
	fputs("<th>changed outside the labs</th></tr>\n", f);
	for (int i = 0; i < nr_students; i++) {
		const struct student *st = &students[i];
		int total, max;
		enum verdict worst = student_sum(st, &total, &max);

		fputs("<tr><td><a href=\"", f);
		url_component(f, st->name);
		fputs("/report.html\">", f);
		html_str(f, st->name);
		fprintf(f, "</a></td><td>%d/%d</td><td>%s</td>", total, max, verdict_names[worst]);
		for (int c = 0; c < nr_cols; c++) {
			struct cell cell = student_cell(st, c);
			int pct = similarity_percent(&cell.similarity);

			fprintf(f, "<td>%d/%d", cell.score, cell.max);
			if (pct >= 0)
				fprintf(f, " <span class=\"note\">(%d%% 6.1)</span>", pct);
			fputs("</td>", f);
		}
		fputs("<td>", f);
		html_str(f, changed_outside(st));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n</body>\n</html>\n", f);
}

static void print_gradebook(FILE *f)
{
	char one_line[LINE_MAX_LEN], name[LINE_MAX_LEN];

	fprintf(f, "%-24s", "student");
	for (int c = 0; c < nr_cols; c++)
		fprintf(f, " %12s", cols[c]);
	fprintf(f, " %9s  %s\n", "total", "status");
	for (int i = 0; i < nr_students; i++) {
		const struct student *s = &students[i];
		int total, max;
		enum verdict worst = student_sum(s, &total, &max);

		/* One line a student, whatever the name holds. */
		snprintf(one_line, sizeof(one_line), "%s", s->name);
		for (char *p = one_line; *p; p++)
			if (*p == '\n')
				*p = ' ';
		clean_copy(name, one_line, sizeof(name));
		fprintf(f, "%-24s", name);
		for (int c = 0; c < nr_cols; c++) {
			struct cell cell = student_cell(s, c);
			int pct = similarity_percent(&cell.similarity);
			char sc[40];

			/* the score, and beside it the similarity to 6.1 */
			if (pct >= 0)
				snprintf(sc, sizeof(sc), "%d/%d ~%d%%", cell.score, cell.max, pct);
			else
				snprintf(sc, sizeof(sc), "%d/%d", cell.score, cell.max);
			fprintf(f, " %12s", sc);
		}
		fprintf(f, " %4d/%-4d  %s", total, max, verdict_names[worst]);
		if (student_undecided(s))
			fprintf(f, " (%d test(s) undecided: regrade)", student_undecided(s));
		if (change_count(&s->changes, CH_CHANGED))
			fprintf(f, " (changes %d function(s) outside the labs: review)",
				change_count(&s->changes, CH_CHANGED));
		fputc('\n', f);
	}
}

static void gradebook(char **dirs, int n, const char *labs)
{
	char buf[256], *tok, *save;

	students = calloc(n, sizeof(*students));
	if (!students)
		die("", "out of memory");
	snprintf(buf, sizeof(buf), "%s", labs ? labs : "");
	for (tok = strtok_r(buf, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save))
		col_of(tok);
	for (int i = 0; i < n; i++) {
		struct student *s = &students[nr_students++];
		size_t len = strlen(dirs[i]);
		char *base;

		while (len > 1 && dirs[i][len - 1] == '/')
			dirs[i][--len] = '\0';
		base = strrchr(dirs[i], '/');
		s->name = base ? base + 1 : dirs[i];
		read_student(s, dirs[i]);
	}
	qsort(cols, nr_cols, sizeof(cols[0]), by_name);
	for (int i = 0; i < nr_students; i++)
		for (int j = 0; j < students[i].nr_cells; j++) {
			const struct cell *cell = &students[i].cells[j];
			int c = col_of(cell->lab);

			if (cell->max > col_max[c])
				col_max[c] = cell->max;
		}
	for (int i = 0; i < nr_students; i++) {
		int total, max;

		if (student_sum(&students[i], &total, &max) != V_OK || total != max)
			fail(EXIT_FAILED);
	}
	class_sort();
}

/* ---- a submission the grader could not grade ------------------------ */

static char fallback_text[(FALLBACK_LINES + 1) * LINE_MAX_LEN];

static void write_fallback(FILE *f)
{
	fputs("{\n  \"score\": 0,\n  \"output\": ", f);
	json_str(f, fallback_text);
	/* Gradescope wants a test: one, worth nothing, that says the same. */
	fputs(",\n  \"tests\": [\n    {\"name\": \"grader\", \"score\": 0, \"max_score\": 0, "
	      "\"status\": \"failed\", \"visibility\": \"visible\", \"output\": ", f);
	json_str(f, fallback_text);
	fprintf(f, "}\n  ],\n  \"extra_data\": {\"verdict\": \"%s\"}\n}\n",
		verdict_names[V_NOT_GRADED]);
}

/* The last FALLBACK_LINES lines of @path, cleaned, after a heading. */
static void read_fallback(const char *path)
{
	static char ring[FALLBACK_LINES][LINE_MAX_LEN];
	char *line = NULL;
	size_t cap = 0, n;
	int count = 0;
	FILE *f = fopen(path, "r");

	n = snprintf(fallback_text, sizeof(fallback_text),
		     "The grader could not grade this submission (this is not a verdict on it).");
	if (!f) {
		snprintf(fallback_text + n, sizeof(fallback_text) - n,
			 "\n(its log %s could not be read)", path);
		return;
	}
	while (getline(&line, &cap, f) > 0)
		clean_copy(ring[count++ % FALLBACK_LINES], line, LINE_MAX_LEN);
	free(line);
	fclose(f);
	n += snprintf(fallback_text + n, sizeof(fallback_text) - n,
		      " The end of its log:");
	for (int i = count > FALLBACK_LINES ? count - FALLBACK_LINES : 0; i < count; i++)
		n += snprintf(fallback_text + n, sizeof(fallback_text) - n, "\n%s",
			      ring[i % FALLBACK_LINES]);
}

/* ---- main ------------------------------------------------------------ */

static void write_file(const char *path, void (*fn)(FILE *))
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f)
		die(path, "cannot write");
	fn(f);
	if (f == stdout ? fflush(f) || ferror(f) : fclose(f))
		die(path, "cannot write");
}

static const char usage[] =
	"usage: report [--title T] [--note TEXT] [--style FILE] [--isolation FILE] [--changes FILE]\n"
	"              [--json OUT] [--junit OUT] [--html OUT] [--artifacts kept|none]\n"
	"              [--durations N] [--subset TEXT] RESULT...\n"
	"       report --gradebook-csv OUT --gradebook-json OUT [--class-html OUT] [--class-json OUT]\n"
	"              [--labs \"01 02\"] [--] DIR...\n"
	"       report --fallback LOG --json OUT";

int main(int argc, char **argv)
{
	const char *json = NULL, *junit = NULL, *html = NULL, *title = "schedlab results";
	const char *csv = NULL, *gjson = NULL, *chtml = NULL, *cjson = NULL, *labs = NULL;
	const char *fallback = NULL;
	int durations = -1, i, to_stdout;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--")) {
			i++;
			break;
		}
		if (!val)
			die(opt, "needs a value");
		i++;
		if (!strcmp(opt, "--json"))
			json = val;
		else if (!strcmp(opt, "--junit"))
			junit = val;
		else if (!strcmp(opt, "--html"))
			html = val;
		else if (!strcmp(opt, "--title"))
			title = val;
		else if (!strcmp(opt, "--style"))
			read_style(val);
		else if (!strcmp(opt, "--note"))
			clean_copy(note, val, sizeof(note));
		else if (!strcmp(opt, "--isolation"))
			read_isolation(val, isolation, sizeof(isolation));
		else if (!strcmp(opt, "--changes")) {
			if (change_map_read(val, &changes))
				die(val, "not a change map");
		}
		else if (!strcmp(opt, "--subset"))
			subset = val;
		else if (!strcmp(opt, "--durations") && strspn(val, "0123456789") == strlen(val) && val[0])
			durations = atoi(val);
		else if (!strcmp(opt, "--gradebook-csv"))
			csv = val;
		else if (!strcmp(opt, "--gradebook-json"))
			gjson = val;
		else if (!strcmp(opt, "--class-html"))
			chtml = val;
		else if (!strcmp(opt, "--class-json"))
			cjson = val;
		else if (!strcmp(opt, "--labs"))
			labs = val;
		else if (!strcmp(opt, "--fallback"))
			fallback = val;
		else if (!strcmp(opt, "--artifacts") && (!strcmp(val, "kept") || !strcmp(val, "none")))
			artifacts_kept = !strcmp(val, "kept");
		else
			die(opt, usage);
	}
	to_stdout = (json && !strcmp(json, "-")) || (junit && !strcmp(junit, "-")) ||
		    (html && !strcmp(html, "-")) ||
		    (csv && !strcmp(csv, "-")) || (gjson && !strcmp(gjson, "-"));

	if (fallback) {
		if (!json || i < argc)
			die("--fallback", usage);
		read_fallback(fallback);
		write_file(json, write_fallback);
		return EXIT_PASSED;
	}
	if (csv || gjson) {
		if (!csv || !gjson || i == argc)
			die("--gradebook-csv", usage);
		gradebook(argv + i, argc - i, labs);
		print_gradebook(to_stdout ? stderr : stdout);
		write_file(csv, write_csv);
		write_file(gjson, write_gradebook_json);
		if (chtml)
			write_file(chtml, write_class_html);
		if (cjson)
			write_file(cjson, write_class_json);
		if (!to_stdout)
			printf("gradebook: %s %s\n", csv, gjson);
		return status;
	}
	if (i == argc)
		die("", usage);
	for (; i < argc; i++) {
		if (nr_labs == MAX_LABS)
			die(argv[i], "too many lab results");
		if (read_result(argv[i], &lab_results[nr_labs]))
			die(argv[i], "cannot read lab result");
		if (!lab_passed(&lab_results[nr_labs++]))
			fail(EXIT_FAILED);
	}
	if (!to_stdout)
		print_table(stdout, title, durations);
	if (json)
		write_file(json, write_json);
	if (junit)
		write_file(junit, write_junit);
	if (html) {
		html_title = title;
		write_file(html, write_html);
	}
	return status;
}
