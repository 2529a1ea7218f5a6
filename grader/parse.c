// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - stage 6 of grading: turn one boot's logs into one lab's result.
 *
 *   parse --lab S --title T --tests LIST --mark M --cmark C --status N
 *	   --console CONSOLE --results RESULTS [--alone] [--traces PREFIX]
 *	S: the section (a lab "NN", or its hidden tests "NNh"); LIST: its test
 *	names, one a line; N: boot.exp's exit status.
 *   parse --lab S --title T --tests LIST --verdict V --detail D [LOG]
 *	a lab that never booted (V is no-apply, no-build or rejected); the
 *	tail of LOG, if given, becomes the excerpt.
 *
 * The result goes to standard output in the format of results.h; the exit
 * status is results.h's (0: every test passed on a clean run).
 *
 * A boot leaves two logs.  RESULTS is the tests' own channel (a virtio
 * console the kernel's printk never writes to): only what follows this
 * run's marker M on a line counts, between "M BEGIN S" and "M END S": the
 * tests' result lines and "TIME NAME USEC" after each test (a test that
 * reports twice is a verdict of its own, duplicate).  CONSOLE is the
 * kernel's console: it is only searched for panics, oopses, BUGs and
 * WARNINGs, and for the init's section lines ("schedlab: C begin S", "...
 * end S"), which tell which section a splat happened in.  One boot may
 * run several sections, one after the other:
 *
 *   - a splat inside S's section is S's verdict (the lab scores 0);
 *   - a section that ran to its end before the boot's first splat keeps
 *     its tests' results;
 *   - a section that began after the first splat, or never began, was
 *     interrupted: parse writes nothing and exits 3, and the grader boots
 *     that lab again on its own (--alone), where every splat is its own
 *     but one inside another section (the lab's hidden tests, "NNh").
 *     A section never begins after a lab that left the machine changed
 *     ("schedlab: C changed S WHAT": the init ends the boot there); S's
 *     result says so.
 *   - a section after which the kernel broke an invariant ("schedlab: C
 *     invariant S WHAT", the init's check: a task_struct of its ended
 *     tasks still held, a runqueue's clamp not its buckets') scores 0, as
 *     for a splat; WHAT is the detail.
 *   - a clean section in which a test failed as "inconclusive:" (it could
 *     not decide on this machine: the emulated machine was too slow for
 *     what it measures) is graded again alone too; still inconclusive
 *     there, that test is undecided (results.h): not scored, and said to
 *     be the grading machine's trouble.
 *
 * Each log line is cleaned before it is read (results.h: valid UTF-8, no
 * escape sequences or control characters); on the console a CR starts a
 * new line, as it does on a terminal.
 *
 * With --traces PREFIX, the placement traces a test printed ("TRACE NAME
 * ...", see labs/lib/trace.h) go to PREFIX.NAME.trace, one file a known
 * test, at most MAX_TRACE_LINES lines each, and the result names that
 * file (the timeline renderer draws PREFIX.NAME.svg from it).
 */
#include "results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define EXCERPT_AFTER 24
#define NO_RESULT "no result reported"
#define MAX_TRACE_LINES 2000

static const char *trace_prefix;
static int trace_lines[MAX_TESTS];
static int nr_results[MAX_TESTS];	/* result lines seen, per test */

static struct lab_result res;

static void die(const char *msg)
{
	fprintf(stderr, "parse: %s\n", msg);
	exit(EXIT_TOOL_ERROR);
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
		t->duration_us = -1;
		snprintf(t->message, sizeof(t->message), NO_RESULT);
		res.nr_tests++;
	}
	fclose(f);
}

/*
 * One line of Check's verbose output:
 *	file:line:R:tcase:test:iteration: message
 * R is P (passed), F (failed), E (error: the test's process died) or S
 * (a check failed in the test's checked fixture, its set-up or clean-up).
 */
static const char result_letters[] = "PFES";

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
	if (n < 6 || f[2][1] != ':' || !strchr(result_letters, f[2][0]))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)(f[5] - f[4] - 1), f[4]);
	t = find_test(name);
	if (!t)
		return 0;
	if (nr_results[t - res.tests]++)
		return 1;	/* a duplicate: the section's verdict says so */
	t->passed = f[2][0] == 'P';
	const char *msg = strchr(f[5], ':');

	msg = msg ? msg + 1 : "";
	while (*msg == ' ')
		msg++;
	if (f[2][0] == 'E')
		snprintf(t->message, sizeof(t->message), "error: %s", msg);
	else if (f[2][0] == 'S')
		snprintf(t->message, sizeof(t->message), "in the test's set-up or clean-up: %s", msg);
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
	snprintf(t->trace, sizeof(t->trace), "%s.%s.trace", trace_prefix, name);
}

/* "TIME NAME USEC": how long NAME took. */
static void save_time(const char *s)
{
	char name[128], *end;
	struct test_result *t;
	long long us;
	int at;

	if (sscanf(s, "TIME %127s %n", name, &at) != 1 || !(t = find_test(name)))
		return;
	errno = 0;
	us = strtoll(s + at, &end, 10);
	if (end != s + at && !*end && !errno && us >= 0)
		t->duration_us = us;
}

static void add_excerpt(const char *line)
{
	if (res.nr_excerpt < MAX_EXCERPT)
		clean_copy(res.excerpt[res.nr_excerpt++], line, LINE_MAX_LEN);
}

/*
 * One line of a log into @buf (size @n), NUL bytes read as spaces, the
 * rest of an overlong line dropped; it ends at a newline, or with @cr_ends
 * at a CR too (after which a terminal shows the line anew), and empty
 * lines are skipped.  Returns 0 at the end of the file.
 */
static int read_line(FILE *f, char *buf, size_t n, int cr_ends)
{
	size_t i;
	int c;

	do {
		for (i = 0; (c = getc(f)) != EOF && c != '\n' && !(cr_ends && c == '\r');)
			if (i + 1 < n)
				buf[i++] = c ? c : ' ';
		buf[i] = '\0';
	} while (c != EOF && i == 0);
	return i > 0;
}

/* Where this run's @mark, followed by a space, begins in @line; or NULL. */
static const char *find_mark(const char *line, const char *mark)
{
	size_t len = strlen(mark);

	for (const char *p = line; (p = strstr(p, mark)); p++)
		if (p[len] == ' ')
			return p;
	return NULL;
}

static FILE *open_log(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot read a log");
	return f;
}

/*
 * The results channel: S's test results, durations and traces, between
 * "M BEGIN S" and "M END S".  Sets *began and *ended; returns the index
 * of a test that reported more than one result, or -1.
 */
static int read_results(const char *path, const char *mark, int *began,
			int *ended)
{
	char raw[4096], s[4096];
	const char *m;
	int ours = 0;
	FILE *f = open_log(path);

	*began = *ended = 0;
	while (read_line(f, raw, sizeof(raw), 0)) {
		/* What the tests printed follows the mark (a CR in it is a space). */
		m = find_mark(raw, mark);
		if (!m)
			continue;
		clean_copy(s, m + strlen(mark) + 1, sizeof(s));
		if (!strncmp(s, "BEGIN ", 6))
			ours = !strcmp(s + 6, res.lab), *began |= ours;
		else if (!strncmp(s, "END ", 4) && ours)
			ours = 0, *ended = 1;
		else if (ours && !strncmp(s, "TRACE ", 6))
			save_trace_line(s);
		else if (ours && !strncmp(s, "TIME ", 5))
			save_time(s);
		else if (ours)
			parse_check_line(s);
	}
	fclose(f);
	for (int i = 0; i < res.nr_tests; i++)
		if (nr_results[i] > 1)
			return i;
	return -1;
}

/* What the console showed about section S. */
struct console_view {
	int begin, end;		/* line numbers of S's section lines, or -1 */
	int first_splat;	/* line of the boot's first splat, or -1 */
	enum verdict in;	/* worst splat inside S's section */
	int in_line, in_first;	/* its line, and the section's first splat */
	enum verdict any;	/* worst splat anywhere */
	int any_line;		/* its line (the first is first_splat) */
	enum verdict mine;	/* worst splat not inside another section */
	int mine_line, mine_first;	/* its line, and the first such */
	int ignored_in, ignored_any;	/* unmarked result-like lines */
	char changed[LINE_MAX_LEN / 2];	/* how S left the machine, or "" */
	char invariant[LINE_MAX_LEN / 2];	/* what S's kernel broke, or "" */
};

/* "schedlab: C WORD [ARG]" anywhere in @line: WORD's start, or NULL. */
static const char *section_line(const char *line, const char *cmark)
{
	char key[128];
	const char *p;

	snprintf(key, sizeof(key), "schedlab: %s ", cmark);
	p = strstr(line, key);
	return p ? p + strlen(key) : NULL;
}

/* A ":R:" of Check's result lines anywhere in @line. */
static int result_like(const char *line)
{
	char key[] = ":?:";

	for (const char *r = result_letters; *r; r++) {
		key[1] = *r;
		if (strstr(line, key))
			return 1;
	}
	return 0;
}

static void read_console(const char *path, const char *cmark,
			 struct console_view *cv)
{
	char raw[4096], line[4096];
	int n = 0, ours = 0, other = 0;
	size_t lab_len = strlen(res.lab);
	FILE *f = open_log(path);

	*cv = (struct console_view){ .begin = -1, .end = -1, .first_splat = -1,
				     .mine_first = -1 };
	for (; read_line(f, raw, sizeof(raw), 1); n++) {
		const char *sec;
		enum verdict v;

		clean_copy(line, raw, sizeof(line));
		sec = section_line(line, cmark);
		if (sec) {
			if (!strncmp(sec, "begin ", 6) && !strcmp(sec + 6, res.lab))
				ours = 1, cv->begin = n;
			else if (!strncmp(sec, "begin ", 6))
				other = 1;
			else if (!strncmp(sec, "end ", 4) && ours)
				ours = 0, cv->end = n;
			else if (!strncmp(sec, "end ", 4))
				other = 0;
			else if (!strncmp(sec, "changed ", 8) &&
				 !strncmp(sec + 8, res.lab, lab_len) && sec[8 + lab_len] == ' ')
				snprintf(cv->changed, sizeof(cv->changed), "%s",
					 sec + 9 + lab_len);
			else if (!strncmp(sec, "invariant ", 10) &&
				 !strncmp(sec + 10, res.lab, lab_len) && sec[10 + lab_len] == ' ')
				snprintf(cv->invariant, sizeof(cv->invariant), "%s",
					 sec + 11 + lab_len);
			continue;
		}
		if (result_like(line)) {
			cv->ignored_any++;
			cv->ignored_in += ours;
		}
		v = classify_splat(line);
		if (v == V_OK)
			continue;
		if (cv->first_splat < 0)
			cv->first_splat = n;
		if (v > cv->any)
			cv->any = v, cv->any_line = n;
		if (!other && cv->mine_first < 0)
			cv->mine_first = n;
		if (!other && v > cv->mine)
			cv->mine = v, cv->mine_line = n;
		if (ours && cv->in == V_OK)
			cv->in_first = n;
		if (ours && v > cv->in)
			cv->in = v, cv->in_line = n;
	}
	fclose(f);
}

/*
 * The verdict's detail is console line @worst; the excerpt, the lines from
 * the first splat @first on (what caused the worst one, often: an oops
 * before the panic it turns into) and from @worst on.
 */
static void excerpt_from(const char *path, const char *cmark, int first,
			 int worst)
{
	char raw[4096], line[4096];
	FILE *f = open_log(path);

	for (int n = 0; read_line(f, raw, sizeof(raw), 1); n++) {
		clean_copy(line, raw, sizeof(line));
		if (section_line(line, cmark))
			continue;
		if (n == worst)
			clean_copy(res.detail, strip_timestamp(line), sizeof(res.detail));
		if ((n >= first && n < first + EXCERPT_AFTER) ||
		    (n >= worst && n < worst + EXCERPT_AFTER))
			add_excerpt(line);
	}
	fclose(f);
}

/* The section's splat was followed by a hang (boot.exp's time limit). */
static int hung_after_splat;

/*
 * S's verdict from both logs and boot.exp's status (see boot.exp);
 * returns 0, or EXIT_RETRY_ALONE when S was interrupted by an earlier
 * section's trouble (and must be graded again, alone).
 */
static int judge_boot(const char *console, const char *results,
		      const char *mark, const char *cmark, int status, int alone)
{
	struct console_view cv;
	int began, ended, ignored, dup, flooded;

	dup = read_results(results, mark, &began, &ended);
	read_console(console, cmark, &cv);
	/* A flood is the cause of what the kernel says about it (an RCU
	 * stall while the console is busy): the verdict is the flood's. */
	flooded = cv.end < 0 && status == 5;
	if (cv.in != V_OK && !flooded) {
		res.verdict = cv.in;
		excerpt_from(console, cmark, cv.in_first, cv.in_line);
		if (cv.end < 0 && status == 2)
			hung_after_splat = 1;
	} else if (alone && cv.mine != V_OK && !flooded) {
		/* Alone, a splat is S's unless another section (its hidden
		 * tests', "NNh") had it: that one is its own. */
		res.verdict = cv.mine;
		excerpt_from(console, cmark, cv.mine_first, cv.mine_line);
	} else if (!alone && (cv.begin < 0 ||
			      (cv.first_splat >= 0 && cv.begin > cv.first_splat))) {
		return EXIT_RETRY_ALONE;
	} else if (status == 1) {
		res.verdict = V_PANIC;
	} else if (cv.end < 0 && status == 2) {
		res.verdict = V_HANG;
		snprintf(res.detail, sizeof(res.detail),
			 "no end of the tests within the time limit%s",
			 began ? "" : "; the tests never started");
	} else if (flooded) {
		res.verdict = V_FLOOD;
		if (cv.in != V_OK)
			excerpt_from(console, cmark, cv.in_first, cv.in_line);
		else if (alone && cv.mine != V_OK)
			excerpt_from(console, cmark, cv.mine_first, cv.mine_line);
		snprintf(res.detail, sizeof(res.detail),
			 "the kernel printed more than the grader keeps; the boot was stopped");
	} else if (!began) {
		res.verdict = V_NO_TESTS;
		snprintf(res.detail, sizeof(res.detail),
			 "the tests' channel never showed this suite starting");
	} else if (!ended) {
		res.verdict = V_TEST_CRASH;
		snprintf(res.detail, sizeof(res.detail),
			 "the suite started but never reported its end");
	} else if (cv.invariant[0]) {
		res.verdict = V_INVARIANT;
		snprintf(res.detail, sizeof(res.detail), "after the tests: %s", cv.invariant);
	} else {
		res.verdict = V_OK;
	}
	if (hung_after_splat) {
		size_t n = strlen(res.detail);

		snprintf(res.detail + n, sizeof(res.detail) - n,
			 " (then the kernel hung: the tests did not end within the time limit)");
	}
	if (dup >= 0 && res.verdict < V_DUPLICATE) {
		res.verdict = V_DUPLICATE;
		snprintf(res.detail, sizeof(res.detail), "%s reported %d results in one run",
			 res.tests[dup].name, nr_results[dup]);
	}
	ignored = alone ? cv.ignored_any : cv.ignored_in;
	if (cv.changed[0] && res.verdict == V_OK)
		snprintf(res.detail, sizeof(res.detail),
			 "after its tests the machine was not as at boot (%s): the labs after it were graded in boots of their own",
			 cv.changed);
	else if (ignored && res.verdict == V_OK)
		snprintf(res.detail, sizeof(res.detail),
			 "%d result-like console line(s) outside the tests' channel were ignored",
			 ignored);
	return 0;
}

/*
 * A test that says it cannot decide on this machine fails with a message
 * that starts so (the labs' tests, when the emulated machine was too slow
 * for what they measure).
 */
#define INCONCLUSIVE "inconclusive:"

static int is_inconclusive(const struct test_result *t)
{
	return !t->passed && !strncmp(t->message, INCONCLUSIVE, strlen(INCONCLUSIVE));
}

static int any_inconclusive(void)
{
	for (int i = 0; i < res.nr_tests; i++)
		if (is_inconclusive(&res.tests[i]))
			return 1;
	return 0;
}

/*
 * A lab whose run went wrong scores 0: every test fails and says why, and
 * what it would have said on its own.  In a clean run, a test still
 * inconclusive in a boot of its own is undecided: not scored.
 */
static void score_tests(void)
{
	for (int i = 0; i < res.nr_tests; i++) {
		struct test_result *t = &res.tests[i];
		char own[LINE_MAX_LEN / 2];

		if (res.verdict == V_OK && is_inconclusive(t)) {
			snprintf(own, sizeof(own), "%s", t->message);
			snprintf(t->message, sizeof(t->message),
				 "not scored: the grading machine could not decide this test, twice (the second time in a boot of its own); the grader's trouble, not yours: %s",
				 own);
			t->undecided = 1;
			t->max_points = 0;
		} else if (res.verdict >= V_NO_APPLY) {
			snprintf(t->message, sizeof(t->message), "not run: %s",
				 verdict_text(res.verdict));
		} else if (res.verdict != V_OK) {
			if (t->passed)
				snprintf(own, sizeof(own), "the test itself passed");
			else if (!strcmp(t->message, NO_RESULT) && hung_after_splat)
				snprintf(own, sizeof(own),
					 "the test never reported a result: the kernel hung before it ended");
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
	const char *mark = NULL, *cmark = NULL, *tests = NULL, *verdict = NULL;
	const char *log = NULL, *console = NULL, *results = NULL;
	int status = 0, alone = 0;

	for (int i = 1; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--alone"))
			alone = 1;
		else if (!strcmp(argv[i], "--lab") && val)
			clean_copy(res.lab, argv[++i], sizeof(res.lab));
		else if (!strcmp(argv[i], "--title") && val)
			clean_copy(res.title, argv[++i], sizeof(res.title));
		else if (!strcmp(argv[i], "--mark") && val)
			mark = argv[++i];
		else if (!strcmp(argv[i], "--cmark") && val)
			cmark = argv[++i];
		else if (!strcmp(argv[i], "--tests") && val)
			tests = argv[++i];
		else if (!strcmp(argv[i], "--status") && val)
			status = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--console") && val)
			console = argv[++i];
		else if (!strcmp(argv[i], "--results") && val)
			results = argv[++i];
		else if (!strcmp(argv[i], "--verdict") && val)
			verdict = argv[++i];
		else if (!strcmp(argv[i], "--traces") && val)
			trace_prefix = argv[++i];
		else if (!strcmp(argv[i], "--detail") && val)
			clean_copy(res.detail, argv[++i], sizeof(res.detail));
		else if (argv[i][0] != '-' && !log)
			log = argv[i];
		else
			die("usage: parse --lab S --title T --tests LIST (--mark M --cmark C --status N --console F --results F [--alone] | --verdict V --detail D [LOG])");
	}
	if (!res.lab[0] || !tests)
		die("--lab and --tests are required");
	read_test_list(tests);

	if (verdict) {
		res.verdict = verdict_from_name(verdict);
		if (res.verdict == V_NR)
			die("no such verdict");
		if (log)
			excerpt_tail(log, 20);
	} else {
		if (!mark || strlen(mark) < 8 || !cmark || strlen(cmark) < 8 ||
		    !console || !results)
			die("--console, --results and markers of 8 or more characters are required");
		if (judge_boot(console, results, mark, cmark, status, alone))
			return EXIT_RETRY_ALONE;
		/* An inconclusive test gets a second chance, alone. */
		if (!alone && res.verdict == V_OK && any_inconclusive())
			return EXIT_RETRY_ALONE;
	}
	score_tests();
	result_write(stdout, &res);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the result");
	return lab_passed(&res) ? EXIT_PASSED : EXIT_FAILED;
}
