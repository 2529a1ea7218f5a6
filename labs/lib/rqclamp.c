// SPDX-License-Identifier: GPL-2.0
/* rqclamp.c - see rqclamp.h. */
#include "rqclamp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sl_clamp_name(int id)
{
	return id == SL_UCLAMP_MIN ? "min" : "max";
}

int sl_parse_rq_clamp(char *line, int *cpu, int *id, struct sl_rq_clamp *rc)
{
	char clamp[8], *tok, *save;
	int n = 0, in_values = 0, off;

	memset(rc, 0, sizeof(*rc));
	if (sscanf(line, "cpu%d uclamp.%7s %u%n", cpu, clamp, &rc->value, &off) != 3)
		return -1;
	if (!strcmp(clamp, "min"))
		*id = SL_UCLAMP_MIN;
	else if (!strcmp(clamp, "max"))
		*id = SL_UCLAMP_MAX;
	else
		return -1;
	tok = strstr(line + off, " tasks");
	if (!tok)
		return -1;
	for (tok = strtok_r(tok, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, "tasks"))
			continue;
		if (!strcmp(tok, "values")) {
			rc->nr = n;
			n = 0;
			in_values = 1;
			continue;
		}
		if (n < SL_MAX_BUCKETS) {
			if (in_values)
				rc->values[n] = strtoul(tok, NULL, 10);
			else
				rc->tasks[n] = strtoul(tok, NULL, 10);
		}
		n++;
	}
	return rc->nr > 0 && rc->nr <= SL_MAX_BUCKETS && n == rc->nr ? 0 : -1;
}

int sl_rq_clamp_top(const struct sl_rq_clamp *rc)
{
	for (int b = rc->nr - 1; b >= 0; b--)
		if (rc->tasks[b])
			return b;
	return -1;
}
