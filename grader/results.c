// SPDX-License-Identifier: GPL-2.0
/*
 * results.c - reading and writing one lab's result file (see results.h),
 * and the one cleaner of untrusted text, the one JSON escaper and the one
 * XML escaper of the grader's tools.
 */
#include "results.h"

#include <string.h>
#include <stdlib.h>

const char *const verdict_names[V_NR] = {
	[V_OK] = "ok",
	[V_INVARIANT] = "invariant",
	[V_TEST_CRASH] = "suite-crashed",
	[V_NO_TESTS] = "no-tests",
	[V_HANG] = "hang",
	[V_FLOOD] = "flood",
	[V_WARNING] = "warning",
	[V_BUG] = "bug",
	[V_OOPS] = "oops",
	[V_PANIC] = "panic",
	[V_DUPLICATE] = "duplicate",
	[V_NO_APPLY] = "no-apply",
	[V_NO_BUILD] = "no-build",
	[V_REJECTED] = "rejected",
	[V_NOT_GRADED] = "not-graded",
};

static const char *const verdict_texts[V_NR] = {
	[V_OK] = "tests ran",
	[V_INVARIANT] = "after the tests the kernel broke an invariant every kernel keeps",
	[V_TEST_CRASH] = "the test suite did not finish",
	[V_NO_TESTS] = "the kernel never reached the tests",
	[V_HANG] = "the kernel hung (time limit reached)",
	[V_FLOOD] = "the kernel flooded its console (the log passed the grader's cap)",
	[V_WARNING] = "the kernel printed a WARNING",
	[V_BUG] = "the kernel reported a BUG (or a lockdep splat)",
	[V_OOPS] = "the kernel oopsed",
	[V_PANIC] = "the kernel panicked",
	[V_DUPLICATE] = "a test reported more than one result in one run (forged or corrupted output)",
	[V_NO_APPLY] = "the submission does not apply to the starter tree",
	[V_NO_BUILD] = "the kernel does not build",
	[V_REJECTED] = "the submission changes files outside the labs' own",
	[V_NOT_GRADED] = "the grader could not grade this (not a verdict on the submission)",
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
	return V_NR;
}

int utf8_char(const unsigned char *s, unsigned int *cp)
{
	unsigned int c = s[0], min;
	int len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, c &= 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		len = 3, c &= 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, c &= 0x07, min = 0x10000;
	else
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Past the terminal escape sequence that starts at @s (an ESC). */
static const unsigned char *skip_escape(const unsigned char *s)
{
	s++;
	if (*s == '[') {
		/* CSI: parameter and intermediate bytes, a final byte */
		for (s++; *s >= 0x20 && *s < 0x40; s++)
			;
		return *s >= 0x40 && *s <= 0x7e ? s + 1 : s;
	}
	if (*s && strchr("]PX^_", *s)) {
		/* OSC, DCS, SOS, PM, APC: a string up to BEL or ESC \ */
		for (s++; *s && *s != '\n' && *s != 0x07; s++)
			if (s[0] == 0x1b && s[1] == '\\')
				return s + 2;
		return *s == 0x07 ? s + 1 : s;
	}
	/* Any other: intermediate bytes, a final byte */
	while (*s >= 0x20 && *s < 0x30)
		s++;
	return *s >= 0x30 && *s <= 0x7e ? s + 1 : s;
}

void clean_copy(char *dst, const char *src, size_t n)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0;

	while (*s && *s != '\n') {
		const char *put = (const char *)s;
		unsigned int cp;
		int len = utf8_char(s, &cp), put_len = len;

		if (*s == 0x1b) {
			s = skip_escape(s);
			continue;
		}
		if (!len)
			put = REPLACEMENT_CHAR, put_len = 3, len = 1;
		else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			put = " ", put_len = 1;
		if (i + put_len >= n)
			break;
		memcpy(dst + i, put, put_len);
		i += put_len;
		s += len;
	}
	while (i > 0 && dst[i - 1] == ' ')
		i--;
	dst[i] = '\0';
}

void json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		unsigned int cp;
		int len = utf8_char(s, &cp);

		if (!len)
			fputs("\\ufffd", f), len = 1;
		else if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp < 0x20 || cp == 0x7f)
			fprintf(f, "\\u%04x", cp);
		else
			fwrite(s, 1, len, f);
		s += len;
	}
	fputc('"', f);
}

static int bidi_control(unsigned int cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * Escaped markup, tabs and CRs; characters XML 1.0 forbids dropped; for
 * HTML, bidirectional controls shown as their code.
 */
static void markup_str(FILE *f, const char *str, int html)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		unsigned int cp;
		int len = utf8_char(s, &cp);

		if (!len)
			fputs(REPLACEMENT_CHAR, f), len = 1;
		else if (cp == '<')
			fputs("&lt;", f);
		else if (cp == '>')
			fputs("&gt;", f);
		else if (cp == '&')
			fputs("&amp;", f);
		else if (cp == '"')
			fputs("&quot;", f);
		else if (cp == '\'')
			fputs("&#39;", f);
		else if (cp == '\t' || cp == '\r')
			fprintf(f, "&#%u;", cp);
		else if ((cp < 0x20 && cp != '\n') || cp == 0xfffe || cp == 0xffff)
			;
		else if (html && bidi_control(cp))
			fprintf(f, "&lt;U+%04X&gt;", cp);
		else
			fwrite(s, 1, len, f);
		s += len;
	}
}

void xml_str(FILE *f, const char *str)
{
	markup_str(f, str, 0);
}

void html_str(FILE *f, const char *str)
{
	markup_str(f, str, 1);
}

void similarity_write(FILE *f, int matched, int counted)
{
	fprintf(f, "similarity\t%d\t%d\n", matched, counted);
}

static int split(char *line, char **field, int max);

const char *const change_kinds[CH_NR] = { "changed", "added", "top-level" };

void change_write(FILE *f, enum change_kind kind, const char *where)
{
	fprintf(f, "%s\t%s\n", change_kinds[kind], where);
}

int change_map_read(const char *path, struct change_map *m)
{
	char line[LINE_MAX_LEN];
	char *fl[2];
	FILE *f = fopen(path, "r");
	int err = 0;

	memset(m, 0, sizeof(*m));
	if (!f)
		return 0;
	m->read = 1;
	while (!err && fgets(line, sizeof(line), f)) {
		int n = split(line, fl, 2), k;

		for (k = 0; k < CH_NR && strcmp(fl[0], change_kinds[k]); k++)
			;
		if (k == CH_NR || n < 2) {
			err = -1;
		} else if (m->n == MAX_CHANGES) {
			m->more++;
		} else {
			m->kind[m->n] = k;
			clean_copy(m->where[m->n++], fl[1], sizeof(m->where[0]));
		}
	}
	fclose(f);
	return err;
}

int change_count(const struct change_map *m, enum change_kind kind)
{
	int n = 0;

	for (int i = 0; i < m->n; i++)
		n += m->kind[i] == kind;
	return n;
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

		fprintf(f, "test\t%s\t%s\t%d\t%d\t%lld\t%s\n", t->name,
			t->passed ? "pass" : t->undecided ? "undecided" : "fail",
			t->points, t->max_points,
			t->duration_us, t->message);
	}
	for (int i = 0; i < r->nr_tests; i++)
		if (r->tests[i].trace[0])
			fprintf(f, "trace\t%s\t%s\n", r->tests[i].name,
				r->tests[i].trace);
	if (r->similarity.measured)
		similarity_write(f, r->similarity.matched, r->similarity.counted);
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
	char *fl[7];

	memset(r, 0, sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		int n = split(line, fl, 7);

		if (!strcmp(fl[0], "lab") && n >= 2) {
			clean_copy(r->lab, fl[1], sizeof(r->lab));
			if (n >= 3)
				clean_copy(r->title, fl[2], sizeof(r->title));
		} else if (!strcmp(fl[0], "verdict") && n >= 2) {
			r->verdict = verdict_from_name(fl[1]);
			if (r->verdict == V_NR)
				return -1;
		} else if (!strcmp(fl[0], "detail") && n >= 2) {
			clean_copy(r->detail, fl[1], sizeof(r->detail));
		} else if (!strcmp(fl[0], "excerpt") && n >= 2 &&
			   r->nr_excerpt < MAX_EXCERPT) {
			clean_copy(r->excerpt[r->nr_excerpt++], fl[1], LINE_MAX_LEN);
		} else if (!strcmp(fl[0], "test") && n >= 6 &&
			   r->nr_tests < MAX_TESTS) {
			struct test_result *t = &r->tests[r->nr_tests++];

			clean_copy(t->name, fl[1], sizeof(t->name));
			t->passed = !strcmp(fl[2], "pass");
			t->undecided = !strcmp(fl[2], "undecided");
			if (!t->passed && !t->undecided && strcmp(fl[2], "fail"))
				return -1;
			t->points = atoi(fl[3]);
			t->max_points = atoi(fl[4]);
			t->duration_us = strtoll(fl[5], NULL, 10);
			if (t->duration_us < 0)
				t->duration_us = -1;
			clean_copy(t->message, n >= 7 ? fl[6] : "", sizeof(t->message));
		} else if (!strcmp(fl[0], "trace") && n >= 3) {
			for (int i = 0; i < r->nr_tests; i++)
				if (!strcmp(r->tests[i].name, fl[1]))
					clean_copy(r->tests[i].trace, fl[2],
						   sizeof(r->tests[i].trace));
		} else if (!strcmp(fl[0], "similarity") && n >= 3) {
			struct similarity *s = &r->similarity;

			s->measured = 1;
			s->matched = atoi(fl[1]);
			s->counted = atoi(fl[2]);
			if (s->matched < 0 || s->matched > s->counted)
				return -1;
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

int lab_undecided(const struct lab_result *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_tests; i++)
		n += r->tests[i].undecided;
	return n;
}

int lab_passed(const struct lab_result *r)
{
	return r->verdict == V_OK && lab_score(r) == lab_max(r);
}
