#!/bin/bash
# make test: the kit's own test suite.  Ends with "N passed, M failed".
#
#   run.sh [PART...]	(default: every part but starter, in this order; in a
#			course's kit: unit, timeline and starter)
#
# Each part is a file of this folder, sourced here; all count their checks
# with lib.sh, and ask the report (result_json) or jq of its JSON what a lab
# result holds.  Grading parts share one grading slot, reused between runs,
# so only what changed is rebuilt.
#
#   unit        the parser and the report on recorded logs (no QEMU)
#   timeline    the timeline renderer on recorded traces (no QEMU)
#   texts       lab READMEs: one shape, real names, no "seeds", no "pristine"
#   boot        boot.exp and grade.sh on guests that misbehave on purpose
#   starter     the starter tree, graded as a student grades a tree, scores 0
#   class       the starter scores 0 and the reference full marks, every lab
#   hidden      an instructor's hidden tests, reported apart
#   gradescope  run_autograder on a fake /autograder root
#   broken      one submission per failure class, and a batch that resumes
#   hostile     attacks on instructor grading, each stopped; the sandbox probed
#   batch       two graders on one slot, odd names, a batch killed in git am
#               and resumed, a kit change
#   mutants     known-wrong solutions, each killed by some test
#   release     make release: a course's kit, graded as a student would, with
#               no solution in it; the similarity to 6.1 of copied code
#   explore     make shell, make gdb, TEST=, the exit statuses and what
#               GitHub shows (after class: it reuses its submissions)
#   shells      the labs in order: each lab's reference graded on the
#               references before it, and each lab's shell.txt through
#               make shell, before the lab and solved
# and, only when named (as root; they install podman or Chromium, and
# .ci/run runs them in its fresh Debian 12 root):
#   container   the kit's container image, built with podman from a base
#               made here, and make grade LAB=1 in it (the starter: 0)
#   gradescope-container  Gradescope's flow in podman: setup.sh, then
#               run_autograder at 1 CPU and 768 MB on the reference, the
#               empty upload and two hostile ones, in the uid isolation
#   browser     after unit: its report.html and class.html in headless
#               Chromium, a screenshot each; from the DOM, the timelines
#               render, the links resolve, markup in the texts runs nothing
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/svg.sh"
STAGE=selftest

SELF=$BUILD/selftest
ST=$KIT/grader/selftest
TOOLS=$BUILD/grader
if student_kit; then
	PARTS=${*:-unit timeline starter}
	echo "This course's kit: make test runs the grader's own tests and grades the starter tree,"
	echo "which must score 0 on every lab.  It cannot check the labs' solutions: the kit has none."
else
	PARTS=${*:-unit timeline texts boot class hidden gradescope broken hostile batch mutants explore shells release}
fi

# result_json RESULT...: the report's results.json of lab results (fails
# only if the report cannot read them).
result_json() { "$TOOLS/report" --json - "$@" || [ $? = 1 ]; }
# json_true [JQ-OPTION...] FILTER FILE: jq's FILTER holds on FILE.
json_true() { jq -e "$@" >/dev/null; }
# class_pages_agree WHAT DIR: grade-all's class.html and class.json in DIR
# hold the gradebook's numbers: a row a student with its total; each lab's
# histogram the gradebook's scores counted; a test's failures its
# messages' students, most failed first.
class_pages_agree() {
	st_check "$1: class.html, a row a student with the gradebook's total" diff -u \
		<(jq -r '.[] | "\(.total)/\(.max_score)"' "$2/gradebook.json") \
		<(tr -d '\n' <"$2/class.html" | grep -o '/report.html">[^<]*</a></td><td>[0-9]*/[0-9]*' |
			sed 's/.*<td>//')
	st_check "$1: class.json, each lab's histogram the gradebook's scores counted" json_true \
		--slurpfile gb "$2/gradebook.json" '.students == ($gb[0] | length) and
		[.labs[] | .lab as $l | .histogram[] | select(.students > 0) | [$l, .score, .students]] ==
		[$gb[0] | [.[].labs | to_entries[]] | group_by(.key)[] | group_by(.value.score)[] |
		 [(.[0].key | ltrimstr("lab")), .[0].value.score, length]]' "$2/class.json"
	st_check "$1: class.json, a test's failures its messages' students, most failed first" json_true \
		'(.tests | all(.failed == ([.messages[].students] | add // 0) + .other_messages)) and
		 (.tests | map(.failed) | . == (sort | reverse))' "$2/class.json"
}
# lab_field RESULT KEY: the lab's KEY (verdict, detail...), "" if unreadable.
lab_field() { result_json "$1" 2>/dev/null | jq -r --arg k "$2" '.extra_data.labs[0][$k]'; }

# expect_tests RESULT pass|fail WHAT: every test of the lab is WHAT, and the
# run was clean (the suite ran to its end, no kernel splat).
expect_tests() {
	local f=$1 want=$2 what=$3 json lab verdict name got msg
	json=$(result_json "$f") || { st_ko "$what: no readable result $f"; return; }
	lab=$(jq -r '.extra_data.labs[0].lab' <<<"$json")
	verdict=$(jq -r '.extra_data.labs[0].verdict' <<<"$json")
	if [ "$verdict" != ok ]; then
		st_ko "lab $lab, $what: the run was not clean ($verdict: $(jq -r '.extra_data.labs[0].detail' <<<"$json"))"
		return
	fi
	while IFS=$'\t' read -r name got msg; do
		if [ "$got" = "$want" ]; then st_ok; else
			st_ko "lab $lab $name should ${want} on the $what, but ${got}ed: $msg"
		fi
	done < <(jq -r '.tests[] | select(.extra_data | has("test")) |
		[.extra_data.test, (if .status == "passed" then "pass" else "fail" end), .output] | @tsv' <<<"$json")
}

# expect_labs DIR pass|fail WHAT: expect_tests on each lab's result in DIR.
expect_labs() {
	local lab
	for lab in $(all_labs); do
		if [ -f "$1/lab$lab.result" ]; then
			expect_tests "$1/lab$lab.result" "$2" "$3"
		else
			st_ko "lab $lab: no result for the $3 ($1)"
		fi
	done
}

rm -rf "$SELF"
mkdir -p "$SELF"
# make gdb's debug build, the explore part's (minutes from scratch), starts
# with the hostile part at the lowest priority (nice 19): it takes the CPU
# time that part's boots leave idle, and theirs are lab 1's, whose tests
# count admissions, not time; the explore part waits for it.
DEBUG_BUILD=
debug_build() {
	[[ " $PARTS " = *" explore "* ]] && [ -z "$DEBUG_BUILD" ] || return 0
	nice -n 19 "$KIT/grader/build-kernel.sh" "$KSRC" "${OBJ_DEBUG:-$BUILD/obj-debug}" \
		"$KIT/kconfig/debug/gdb.config" >"$SELF/debug-build.log" 2>&1 &
	DEBUG_BUILD=$!
}
# What each part took (seconds), for the summary: CI runs all of them.
part_took=()
for part in $PARTS; do
	[ -f "$ST/$part.sh" ] || die "no self-test part '$part' (parts: $(cd "$ST" && ls ./*.sh | sed 's|./||; s|\.sh$||' | tr '\n' ' '))"
	part_start=$SECONDS
	[ "$part" != hostile ] || debug_build
	# shellcheck source=/dev/null
	. "$ST/$part.sh"
	part_took+=("$part $((SECONDS - part_start))")
done
echo
echo "time of each part (s): $(printf '%s\n' "${part_took[@]}" | paste -sd, | sed 's/,/, /g')"
st_summary
