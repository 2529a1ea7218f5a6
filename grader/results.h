/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results.h - one lab's grading result, as the parser writes it and the
 * report reads it (the report is its only reader: everything else asks the
 * report, or jq of the report's JSON).  On disk it is a small line-based
 * text file:
 *
 *	lab NN TITLE
 *	verdict WORD
 *	detail ONE LINE THAT SAYS WHY
 *	excerpt A CONSOLE OR BUILD LINE      (any number, in order)
 *	test NAME pass|fail|undecided POINTS MAX USEC MESSAGE
 *	trace NAME PATH                       (the placement trace NAME printed)
 *	similarity MATCHED COUNTED            (instructor grading, not scored)
 *
 * Fields are separated by one tab; no field holds a tab, a newline or any
 * other control character, and every field is valid UTF-8 (clean_copy()).
 * USEC is how long the test took on the guest's monotonic clock, -1 when
 * unknown.  A test is undecided when it said it could not decide on this
 * machine (it failed with a message that starts "inconclusive:") even in
 * a boot of its own: the grading machine's trouble, not the student's, so
 * it is not scored (POINTS and MAX 0) and the message says so.  A trace PATH ends in ".trace"; its timeline is the same path
 * ending in ".svg", once the renderer has drawn it (the report links it
 * only if it exists).  The similarity line, written for a submission only
 * (similarity.c), says how much of what it wrote for the lab is the code
 * the lab's starter removed from Linux 6.1: of the COUNTED lines it adds
 * inside the lab's hollowed functions, MATCHED are such lines.
 */
#ifndef SCHEDLAB_RESULTS_H
#define SCHEDLAB_RESULTS_H

#include <stdio.h>

#define MAX_TESTS	64
#define MAX_EXCERPT	40
#define LINE_MAX_LEN	1024

/* The exit status of every grader tool (parse, report, timeline). */
enum tool_status {
	EXIT_PASSED = 0,	/* every graded test passed (or: done, for a tool that does not grade) */
	EXIT_FAILED = 1,	/* a test failed, or a lab got a verdict other than ok */
	EXIT_TOOL_ERROR = 2,	/* the tool itself failed: bad arguments or input, I/O */
	EXIT_RETRY_ALONE = 3,	/* parse: an earlier lab's trouble cut this one short; boot it alone */
};

/* Why a lab scored what it did, worst last. */
enum verdict {
	V_OK,		/* the suite ran to its end, no kernel splat */
	V_INVARIANT,	/* after the suite, the kernel broke an invariant (a leak...) */
	V_TEST_CRASH,	/* the suite started but did not finish */
	V_NO_TESTS,	/* the kernel booted, the suite never started */
	V_HANG,		/* no end within the time limit */
	V_FLOOD,	/* the console (or results) grew past the grader's cap */
	V_WARNING,	/* WARNING: splat */
	V_BUG,		/* BUG: splat, lockdep report */
	V_OOPS,		/* Oops / unable to handle kernel ... */
	V_PANIC,	/* Kernel panic */
	V_DUPLICATE,	/* a test reported twice in one run: forged or corrupted output */
	V_NO_APPLY,	/* the submission does not apply */
	V_NO_BUILD,	/* the kernel does not build */
	V_REJECTED,	/* the submission changes files it may not */
	V_NOT_GRADED,	/* no result at all: the grader itself failed */
	V_NR
};

extern const char *const verdict_names[V_NR];
const char *verdict_text(enum verdict v);
/* The verdict named @name, or V_NR if there is none. */
enum verdict verdict_from_name(const char *name);

struct test_result {
	char name[128];
	int passed;
	int undecided;		/* could not be decided here: not scored */
	int points, max_points;
	long long duration_us;	/* -1: unknown */
	char message[LINE_MAX_LEN];
	char trace[256];	/* trace file path, or "" */
};

/* How much of a submission's code for a lab is 6.1's (see above). */
struct similarity {
	int measured;		/* 0: no such line (not a submission) */
	int matched, counted;
};

struct lab_result {
	char lab[8];
	char title[128];
	enum verdict verdict;
	char detail[LINE_MAX_LEN];
	int nr_excerpt;
	char excerpt[MAX_EXCERPT][LINE_MAX_LEN];
	int nr_tests;
	struct test_result tests[MAX_TESTS];
	struct similarity similarity;
};

void result_write(FILE *f, const struct lab_result *r);
/* The similarity line alone (similarity.c appends it to a lab's result). */
void similarity_write(FILE *f, int matched, int counted);
int result_read(FILE *f, struct lab_result *r);
int lab_score(const struct lab_result *r);
int lab_max(const struct lab_result *r);
int lab_undecided(const struct lab_result *r);
/* Did every test of the lab pass, on a clean run? */
int lab_passed(const struct lab_result *r);

/*
 * A submission's change map (similarity --changes writes it beside the
 * lab results, as changes.txt; the report reads it): what the submission
 * changes outside every lab's hollowed functions, a line each, in the
 * diff's order, "KIND\tWHERE":
 *
 *	changed PATH:FUNCTION	a function of 6.1 no lab hollowed
 *	added PATH:FUNCTION	a function the submission adds
 *	top-level PATH		a line outside every function (a declaration,
 *				an #include, a macro), once a file
 *
 * Not scored: for the instructor's review.
 */
#define MAX_CHANGES	32
enum change_kind { CH_CHANGED, CH_ADDED, CH_TOP_LEVEL, CH_NR };
extern const char *const change_kinds[CH_NR];

struct change_map {
	int read;		/* 0: no map (not a submission's grading) */
	int n, more;		/* entries kept, entries past MAX_CHANGES */
	enum change_kind kind[MAX_CHANGES];
	char where[MAX_CHANGES][256];
};

void change_write(FILE *f, enum change_kind kind, const char *where);
/* The map in file @path; a missing file is no map.  -1: not a map. */
int change_map_read(const char *path, struct change_map *m);
/* How many entries of @kind (those past MAX_CHANGES unknown). */
int change_count(const struct change_map *m, enum change_kind kind);

/*
 * Copy one line of untrusted text @src into @dst (size @n): stops at a
 * newline, keeps whole UTF-8 characters only (an invalid byte becomes
 * U+FFFD), drops terminal escape sequences (CSI, OSC, ...) and turns every
 * other control character (tab, CR, C1) into a space; trailing spaces go.
 */
void clean_copy(char *dst, const char *src, size_t n);

/*
 * The length of the valid UTF-8 character at @s, its code point in *@cp;
 * 0 for a byte that starts none (overlong forms and surrogates included).
 */
int utf8_char(const unsigned char *s, unsigned int *cp);
#define REPLACEMENT_CHAR "\xef\xbf\xbd"	/* U+FFFD, for what is not UTF-8 */

/*
 * @s as a JSON string, quotes included; as XML text or attribute value;
 * as HTML text or attribute value, where a bidirectional control (which
 * would reorder what the page shows) is shown as its code ("<U+202E>").
 */
void json_str(FILE *f, const char *s);
void xml_str(FILE *f, const char *s);
void html_str(FILE *f, const char *s);

#endif
