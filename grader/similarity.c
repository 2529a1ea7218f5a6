// SPDX-License-Identifier: GPL-2.0
/*
 * similarity.c - how much of what a submission writes for a lab is the
 * code that lab's starter removed from Linux 6.1.  Not scored: a figure
 * for the instructor, beside the score (results.h, "similarity").
 *
 *   similarity STARTER_PATCH SUBMISSION_DIFF
 *	prints the lab's "similarity MATCHED COUNTED" line of the result
 *	format;
 *   similarity --functions STARTER_PATCH
 *	lists the lab's hollowed functions ("path:function", one a line);
 *   similarity --changes SUBMISSION_DIFF STARTER_PATCH...
 *	the submission's change map (results.h): the functions it changes
 *	outside every lab's hollowed ones, those it adds, and the files
 *	whose top level it changes (a comment or a definition's type line
 *	is not a change of the top level);
 *   similarity --added SUBMISSION_DIFF
 *	every line the diff adds, for the review (grade-submission.sh): its
 *	place, "NAME:N" (the diff's file name and line) with " (in F())"
 *	when it is in function F, a tab, and the line.
 *
 * From the lab's starter patch: its hollowed functions (every function
 * the patch changes a line of) and its removed lines (the lines it takes
 * out, less those it puts back: a line it only moves is no answer).  From
 * the submission's diff against the starter tree: the lines it adds inside
 * those functions, less those it removes there (a line moved or indented
 * anew is not written).  COUNTED is the number of such lines, MATCHED the
 * number of them that are removed lines of the starter (each removed line
 * matches once).  Lines are compared with every whitespace character taken
 * out, and only lines with a letter or a digit count (not blank lines,
 * braces, comment delimiters).
 *
 * Both inputs are git's unified diffs of a kernel tree, whose hunk headers
 * name the function (or other top-level line) before the hunk (the tree's
 * .gitattributes asks for the "cpp" diff driver).  Within a hunk, functions
 * are found as kernel style writes them: a definition starts at column 0
 * with "(" on its first line, the body's closing brace is at column 0, and
 * any other column-0 line but a label, a brace or a preprocessor line is
 * outside every function (a top-level comment's " *" lines too).
 *
 * Exit status (results.h): 0 done, 2 an input cannot be read.
 */
#include "results.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN	256

/* A multiset of normalised lines. */
struct bag {
	char **s;
	size_t n, cap;
};

struct lab {
	struct bag hollowed;	/* "path:function", once each */
	struct bag removed, added;
};

struct submission {
	const struct bag *hollowed;
	struct bag added, removed;	/* inside the hollowed functions */
};

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "similarity: %s: %s\n", what, msg);
	exit(EXIT_TOOL_ERROR);
}

static void bag_put(struct bag *b, char *s)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->s = realloc(b->s, b->cap * sizeof(*b->s));
		if (!b->s)
			die("memory", "exhausted");
	}
	b->s[b->n++] = s;
}

static int bag_has(const struct bag *b, const char *s)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->s[i], s))
			return 1;
	return 0;
}

/* @line without whitespace into @b, if it has a letter or a digit. */
static void bag_line(struct bag *b, const char *line)
{
	char *s = malloc(strlen(line) + 1), *d = s;
	int counts = 0;

	if (!s)
		die("memory", "exhausted");
	for (; *line; line++) {
		if (isspace((unsigned char)*line))
			continue;
		counts |= isalnum((unsigned char)*line);
		*d++ = *line;
	}
	*d = '\0';
	if (counts)
		bag_put(b, s);
	else
		free(s);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void bag_sort(struct bag *b)
{
	qsort(b->s, b->n, sizeof(*b->s), by_text);
}

/* @a less @b, as multisets; both sorted. */
static void bag_minus(struct bag *a, const struct bag *b)
{
	size_t i = 0, j = 0, kept = 0;

	while (i < a->n) {
		int c = j < b->n ? strcmp(a->s[i], b->s[j]) : -1;

		if (c < 0)
			a->s[kept++] = a->s[i++];
		else if (c > 0)
			j++;
		else
			free(a->s[i++]), j++;
	}
	a->n = kept;
}

/* How many lines @a and @b have in common, as multisets; both sorted. */
static size_t bag_common(const struct bag *a, const struct bag *b)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a->n && j < b->n) {
		int c = strcmp(a->s[i], b->s[j]);

		if (c < 0)
			i++;
		else if (c > 0)
			j++;
		else
			i++, j++, n++;
	}
	return n;
}

/* ---- functions, as kernel style writes them --------------------------- */

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/*
 * The name of the function whose definition starts at line @t, into @name;
 * 0 if @t starts none.  A definition starts at column 0 and has its "(" on
 * this line; a line ending in ";" (a declaration, a macro's use) or with
 * "=" before the "(" (an initialiser) is none.  SYSCALL_DEFINEn(name, ...)
 * defines name.
 */
static int def_name(const char *t, char *name, size_t size)
{
	const char *paren = strchr(t, '('), *eq = strchr(t, '='), *start, *end;
	size_t len = strlen(t);

	while (len && isspace((unsigned char)t[len - 1]))
		len--;
	if (!(isalpha((unsigned char)*t) || *t == '_') || !paren ||
	    (eq && eq < paren) || (len && t[len - 1] == ';'))
		return 0;
	for (end = paren; end > t && end[-1] == ' '; end--)
		;
	for (start = end; start > t && is_ident((unsigned char)start[-1]); start--)
		;
	if (start == end)
		return 0;
	if (strstr(start, "SYSCALL_DEFINE") == start || strstr(start, "COMPAT_SYSCALL_DEFINE") == start) {
		for (start = paren + 1; *start == ' '; start++)
			;
		for (end = start; is_ident((unsigned char)*end); end++)
			;
	}
	snprintf(name, size, "%.*s", (int)(end - start), start);
	return 1;
}

/* A goto label at column 0 ("out:", "unlock:"). */
static int is_label(const char *t)
{
	const char *p = t;

	while (is_ident((unsigned char)*p))
		p++;
	return p > t && !isdigit((unsigned char)*t) && *p == ':' && p[1] != ':';
}

/*
 * Line @t of a hunk, before it is counted: the function @fn it is in (""
 * outside every function) as it changes at @t.
 */
static void enter_line(char *fn, const char *t)
{
	char name[NAME_LEN];

	if (!*t || *t == '\t' || *t == '{' || *t == '}' || *t == '#' || is_label(t))
		return;
	if (*t == ' ') {
		/* a line of a comment at the top level (" * ...") */
		if (t[strspn(t, " ")] == '*')
			fn[0] = '\0';
		return;
	}
	if (def_name(t, name, sizeof(name)))
		snprintf(fn, NAME_LEN, "%s", name);
	else
		fn[0] = '\0';
}

/* ... and after: a closing brace at column 0 ends the function. */
static void leave_line(char *fn, const char *t)
{
	if (*t == '}')
		fn[0] = '\0';
}

/* ---- unified diffs ------------------------------------------------------ */

/* The line of the diff walk_diff() is at (from 1). */
static long diff_line;

/* Called for each removed ('-') or added ('+') line, with its function. */
typedef void (*line_fn)(void *arg, const char *path, const char *fn, char kind, const char *text);

/* A path of a "--- " or "+++ " line, without "a/" or "b/"; "" for /dev/null. */
static void header_path(char *path, const char *p)
{
	const char *slash = strchr(p, '/');

	if (!strncmp(p, "/dev/null", 9) || !slash)
		return;
	snprintf(path, NAME_LEN, "%.*s", (int)strcspn(slash + 1, "\t"), slash + 1);
}

/* "@@ -a[,b] +c[,d] @@ CTX": the hunk's old and new line counts, its CTX. */
static int hunk_header(const char *line, long *old_n, long *new_n, const char **ctx)
{
	char *p;

	if (strncmp(line, "@@ -", 4))
		return 0;
	strtol(line + 4, &p, 10);
	*old_n = *p == ',' ? strtol(p + 1, &p, 10) : 1;
	if (strncmp(p, " +", 2))
		return 0;
	strtol(p + 2, &p, 10);
	*new_n = *p == ',' ? strtol(p + 1, &p, 10) : 1;
	if (strncmp(p, " @@", 3))
		return 0;
	*ctx = p + 3 + (p[3] == ' ');
	return 1;
}

static void walk_diff(const char *file, line_fn fn, void *arg)
{
	char path[NAME_LEN] = "", fn_old[NAME_LEN] = "", fn_new[NAME_LEN] = "";
	char *line = NULL;
	size_t cap = 0;
	long old_left = 0, new_left = 0;
	ssize_t len;
	FILE *f = fopen(file, "r");

	if (!f)
		die(file, "cannot read");
	diff_line = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		const char *t = line + 1;

		diff_line++;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (old_left <= 0 && new_left <= 0) {
			const char *ctx;

			if (!strncmp(line, "diff ", 5))
				path[0] = '\0';
			else if (!strncmp(line, "--- ", 4) || !strncmp(line, "+++ ", 4))
				header_path(path, line + 4);
			else if (hunk_header(line, &old_left, &new_left, &ctx)) {
				fn_old[0] = '\0';
				enter_line(fn_old, ctx);
				memcpy(fn_new, fn_old, sizeof(fn_new));
			}
			continue;
		}
		switch (line[0]) {
		case ' ':
		case '\0':	/* an empty context line, its space stripped */
			t = line[0] ? t : "";
			old_left--, new_left--;
			enter_line(fn_old, t), leave_line(fn_old, t);
			enter_line(fn_new, t), leave_line(fn_new, t);
			break;
		case '-':
		case '+': {
			/* a removed line is the old file's, an added one the new's */
			char *in = line[0] == '-' ? fn_old : fn_new;

			*(line[0] == '-' ? &old_left : &new_left) -= 1;
			enter_line(in, t);
			fn(arg, path, in, line[0], t);
			leave_line(in, t);
			break;
		}
		case '\\':	/* "\ No newline at end of file" */
			break;
		default:	/* not a hunk's line: the hunk was cut short */
			old_left = new_left = 0;
		}
	}
	free(line);
	if (ferror(f))
		die(file, "cannot read");
	fclose(f);
}

static void starter_line(void *arg, const char *path, const char *fn, char kind, const char *text)
{
	struct lab *lab = arg;
	char key[2 * NAME_LEN + 2];

	bag_line(kind == '-' ? &lab->removed : &lab->added, text);
	snprintf(key, sizeof(key), "%s:%s", path, fn);
	if (fn[0] && !bag_has(&lab->hollowed, key)) {
		char *k = strdup(key);

		if (!k)
			die("memory", "exhausted");
		bag_put(&lab->hollowed, k);
	}
}

static void submission_line(void *arg, const char *path, const char *fn, char kind, const char *text)
{
	struct submission *sub = arg;
	char key[2 * NAME_LEN + 2];

	snprintf(key, sizeof(key), "%s:%s", path, fn);
	if (fn[0] && bag_has(sub->hollowed, key))
		bag_line(kind == '+' ? &sub->added : &sub->removed, text);
}

/* ---- the added lines, for the review --------------------------------- */

static void added_line(void *arg, const char *path, const char *fn, char kind, const char *text)
{
	(void)path;
	if (kind != '+')
		return;
	printf("%s:%ld", (const char *)arg, diff_line);
	if (fn[0])
		printf(" (in %s())", fn);
	printf("\t%s\n", text);
}

/* ---- the change map --------------------------------------------------- */

struct changes {
	struct bag hollowed;	/* every lab's, "path:function" */
	struct bag changed;	/* outside them, in the diff's order */
	struct bag defined, undefined;	/* definitions the diff adds, removes */
};

/*
 * A top-level line that changes nothing by itself: a comment's, one of
 * nothing but braces and blanks, or a definition's type on a line of its
 * own ("static inline unsigned int", words only, no ";").
 */
static int is_noise(const char *t)
{
	int words = 1, alnum = 0;

	t += strspn(t, " \t");
	if (!strncmp(t, "/*", 2) || !strncmp(t, "//", 2) || *t == '*')
		return 1;
	for (; *t; t++) {
		alnum |= isalnum((unsigned char)*t);
		words &= is_ident((unsigned char)*t) || *t == ' ' || *t == '*';
	}
	return !alnum || words;
}

static void put_once(struct bag *b, const char *key)
{
	char *k;

	if (bag_has(b, key))
		return;
	k = strdup(key);
	if (!k)
		die("memory", "exhausted");
	bag_put(b, k);
}

static void hollowed_line(void *arg, const char *path, const char *fn, char kind, const char *text)
{
	struct changes *c = arg;
	char key[2 * NAME_LEN + 2];

	(void)kind, (void)text;
	snprintf(key, sizeof(key), "%s:%s", path, fn);
	if (fn[0])
		put_once(&c->hollowed, key);
}

static void changed_line(void *arg, const char *path, const char *fn, char kind, const char *text)
{
	struct changes *c = arg;
	char key[2 * NAME_LEN + 2], name[NAME_LEN];

	if (def_name(text, name, sizeof(name))) {
		snprintf(key, sizeof(key), "%s:%s", path, name);
		put_once(kind == '+' ? &c->defined : &c->undefined, key);
	}
	if (!fn[0] && is_noise(text))
		return;
	if (fn[0])
		snprintf(key, sizeof(key), "%s:%s", path, fn);
	else
		snprintf(key, sizeof(key), "%s", path);
	if (!bag_has(&c->hollowed, key))
		put_once(&c->changed, key);
}

static void change_map(const char *diff, char **starters, int n)
{
	struct changes c = { 0 };

	for (int i = 0; i < n; i++)
		walk_diff(starters[i], hollowed_line, &c);
	walk_diff(diff, changed_line, &c);
	for (size_t i = 0; i < c.changed.n; i++) {
		const char *k = c.changed.s[i];

		change_write(stdout, !strchr(k, ':') ? CH_TOP_LEVEL :
			     bag_has(&c.defined, k) && !bag_has(&c.undefined, k) ? CH_ADDED : CH_CHANGED, k);
	}
}

int main(int argc, char **argv)
{
	struct lab lab = { 0 };
	struct submission sub = { .hollowed = &lab.hollowed };
	int list = argc == 3 && !strcmp(argv[1], "--functions");

	if (argc == 3 && !strcmp(argv[1], "--added")) {
		const char *name = strrchr(argv[2], '/');

		walk_diff(argv[2], added_line, (void *)(name ? name + 1 : argv[2]));
		return fflush(stdout) || ferror(stdout) ? EXIT_TOOL_ERROR : EXIT_PASSED;
	}
	if (argc >= 3 && !strcmp(argv[1], "--changes")) {
		change_map(argv[2], argv + 3, argc - 3);
		return fflush(stdout) || ferror(stdout) ? EXIT_TOOL_ERROR : EXIT_PASSED;
	}
	if (argc != 3 || (!list && argv[1][0] == '-')) {
		fputs("usage: similarity STARTER_PATCH SUBMISSION_DIFF\n"
		      "       similarity --functions STARTER_PATCH\n"
		      "       similarity --changes SUBMISSION_DIFF STARTER_PATCH...\n"
		      "       similarity --added SUBMISSION_DIFF\n", stderr);
		return EXIT_TOOL_ERROR;
	}
	walk_diff(argv[1 + list], starter_line, &lab);
	if (list) {
		for (size_t i = 0; i < lab.hollowed.n; i++)
			printf("%s\n", lab.hollowed.s[i]);
	} else {
		bag_sort(&lab.removed);
		bag_sort(&lab.added);
		bag_minus(&lab.removed, &lab.added);
		walk_diff(argv[2], submission_line, &sub);
		bag_sort(&sub.added);
		bag_sort(&sub.removed);
		bag_minus(&sub.added, &sub.removed);
		similarity_write(stdout, bag_common(&sub.added, &lab.removed), sub.added.n);
	}
	return fflush(stdout) || ferror(stdout) ? EXIT_TOOL_ERROR : EXIT_PASSED;
}
