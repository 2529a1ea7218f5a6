// SPDX-License-Identifier: GPL-2.0
/*
 * clean - standard input to standard output, each line cleaned as every
 * field of a result is (results.h, clean_copy(): valid UTF-8 only, no
 * escape sequence, no other control character, at most 4 KiB a line).
 *
 * What a submission's build prints reaches the grader's terminal and logs
 * through it (grade.sh): a compiler error quoting a line of the
 * submission can carry escape sequences that would retitle or clear an
 * instructor's terminal.
 */
#include <stdio.h>
#include <stdlib.h>

#include "results.h"

int main(int argc, char **argv)
{
	char *line = NULL, out[4 * LINE_MAX_LEN];
	size_t cap = 0;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: clean <TEXT >CLEANED\n");
		return EXIT_TOOL_ERROR;
	}
	while (getline(&line, &cap, stdin) > 0) {
		clean_copy(out, line, sizeof(out));
		puts(out);
	}
	free(line);
	return fflush(stdout) || ferror(stdout) ? EXIT_TOOL_ERROR : EXIT_PASSED;
}
