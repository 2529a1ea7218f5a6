/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results.h - one lab's grading result, as the parser writes it and the
 * report reads it.  On disk it is a small line-based text file:
 *
 *	lab NN TITLE
 *	verdict WORD
 *	detail ONE LINE THAT SAYS WHY
 *	excerpt A CONSOLE OR BUILD LINE      (any number, in order)
 *	test NAME pass|fail POINTS MAX MESSAGE
 *	timeline NAME PATH                    (an SVG of where NAME's tasks ran)
 *
 * Fields are separated by one tab; no field holds a tab or a newline.
 */
#ifndef SCHEDLAB_RESULTS_H
#define SCHEDLAB_RESULTS_H

#include <stdio.h>

#define MAX_TESTS	64
#define MAX_EXCERPT	40
#define LINE_MAX_LEN	1024

/* Why a lab scored what it did, worst last. */
enum verdict {
	V_OK,		/* the suite ran to its end, no kernel splat */
	V_TEST_CRASH,	/* the suite started but did not finish */
	V_NO_TESTS,	/* the kernel booted, the suite never started */
	V_HANG,		/* no end within the time limit */
	V_FLOOD,	/* the console outgrew its cap (instructor grading) */
	V_WARNING,	/* WARNING: splat */
	V_BUG,		/* BUG: splat, lockdep report */
	V_OOPS,		/* Oops / unable to handle kernel ... */
	V_PANIC,	/* Kernel panic */
	V_NO_APPLY,	/* the submission does not apply */
	V_NO_BUILD,	/* the kernel does not build */
	V_REJECTED,	/* the submission changes files it may not */
	V_NR
};

extern const char *const verdict_names[V_NR];
const char *verdict_text(enum verdict v);
enum verdict verdict_from_name(const char *name);

struct test_result {
	char name[128];
	int passed;
	int points, max_points;
	char message[LINE_MAX_LEN];
	char timeline[256];	/* SVG path, or "" */
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
};

void result_write(FILE *f, const struct lab_result *r);
int result_read(FILE *f, struct lab_result *r);
int lab_score(const struct lab_result *r);
int lab_max(const struct lab_result *r);

/* Copy @src into @dst (size @n), replacing tabs and control bytes. */
void clean_copy(char *dst, const char *src, size_t n);

#endif
