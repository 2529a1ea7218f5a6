#!/bin/bash
# check-results.sh FILE: is FILE a results.json Gradescope accepts?  The
# fields its autograder specification requires: a numeric score (or one per
# test), and for each test name, score, max_score, output and visibility.
set -euo pipefail
jq -e '
	(.tests | type == "array" and length > 0) and
	((.score | type == "number") or all(.tests[]; .score | type == "number")) and
	all(.tests[];
		(.name | type == "string") and (.score | type == "number") and
		(.max_score | type == "number") and (.output | type == "string") and
		(.visibility | IN("visible", "hidden", "after_due_date", "after_published")))
' "$1" >/dev/null
