#!/bin/bash
# GitHub Actions: the result of a grade, where a student sees it on the push.
#
#   github-summary.sh OUT	(make grade's OUT: results.json and status)
#
# Appends to $GITHUB_STEP_SUMMARY (Markdown) the score, a table of the labs
# (verdict, score) and the failing tests with their messages, and prints
# an annotation ("::error title=...::message") for each failing test and
# each lab that did not run cleanly.  Without results.json (the grader
# failed, status 2) it says so instead.  Exit status 0 (the grade step's own
# status is what fails the job).
set -euo pipefail
out=$1
summary=${GITHUB_STEP_SUMMARY:-/dev/stdout}
json=$out/results.json
st=$(cat "$out/status" 2>/dev/null || echo 2)

# Workflow commands want %, CR and LF escaped in a message.
escape='gsub("%"; "%25") | gsub("\r"; "%0D") | gsub("\n"; "%0A")'
# A Markdown table cell: one line, no bare "|".
cell='gsub("\\|"; "\\|") | gsub("\n"; "<br>")'

if [ ! -s "$json" ]; then
	echo "::error title=grader error::the grader could not grade this push (status $st): see the log of the grade step"
	printf '## schedlab: not graded\n\nThe grader failed (status %s): nothing was scored.  The log of the grade step says why.\n' \
		"$st" >>"$summary"
	exit 0
fi

jq -r '
	"## schedlab: \(.score)/\(.max_score)" +
	(if .extra_data.subset then " (\(.extra_data.subset) only)" else "" end),
	"",
	"| lab | | verdict | score |",
	"|---|---|---|---|",
	(.extra_data.labs[] | "| \(.lab) | \(.title) | \(.verdict) | \(.score)/\(.max_score) |"),
	"",
	(if any(.tests[]; .status == "failed") then
		"| failing test | message |", "|---|---|",
		(.tests[] | select(.status == "failed") | "| \(.name) | \(.output | '"$cell"') |")
	else "Every test passed." end)
' "$json" >>"$summary"

jq -r '
	(.extra_data.labs[] | select(.verdict != "ok") |
		"::error title=lab \(.lab) \(.verdict)::\(.output | '"$escape"')"),
	(.tests[] | select(.status == "failed") |
		"::error title=\(.name)::\(.output | '"$escape"')")
' "$json"
