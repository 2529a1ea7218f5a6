#!/bin/bash
# make test: the kit's own test suite.  Ends with "N passed, M failed".
#
#   run.sh [PART...]	(default: every part, in this order)
#
# Each part is a file of this folder, sourced here; all count their checks
# with lib.sh, and ask the report (result_json) or jq of its JSON what a lab
# result holds.  Grading parts share one grading slot, reused between runs,
# so only what changed is rebuilt.
#
#   unit        the parser and the report on recorded logs (no QEMU)
#   timeline    the timeline renderer on recorded traces (no QEMU)
#   texts       lab READMEs: one shape, real names, no "seeds"
#   boot        boot.exp and grade.sh on guests that misbehave on purpose
#   class       the starter scores 0 and the reference full marks, every lab
#   hidden      an instructor's hidden tests, reported apart
#   gradescope  run_autograder on a fake /autograder root
#   broken      one submission per failure class, and a batch that resumes
#   hostile     attacks on instructor grading, each stopped; the sandbox probed
#   batch       two graders on one slot, odd names, a batch killed in git am
#               and resumed, a kit change
#   mutants     known-wrong solutions, each killed by some test
#   explore     make shell, make gdb, TEST=, the exit statuses and what
#               GitHub shows (after class: it reuses its submissions)
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/svg.sh"
STAGE=selftest

SELF=$BUILD/selftest
ST=$KIT/grader/selftest
TOOLS=$BUILD/grader
PARTS=${*:-unit timeline texts boot class hidden gradescope broken hostile batch mutants explore}

# result_json RESULT...: the report's results.json of lab results (fails
# only if the report cannot read them).
result_json() { "$TOOLS/report" --json - "$@" || [ $? = 1 ]; }
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
	done < <(jq -r '.tests[] | [.extra_data.test, (if .status == "passed" then "pass" else "fail" end), .output] | @tsv' <<<"$json")
}

rm -rf "$SELF"
mkdir -p "$SELF"
for part in $PARTS; do
	[ -f "$ST/$part.sh" ] || die "no self-test part '$part' (parts: $(cd "$ST" && ls ./*.sh | sed 's|./||; s|\.sh$||' | tr '\n' ' '))"
	# shellcheck source=/dev/null
	. "$ST/$part.sh"
done
st_summary
