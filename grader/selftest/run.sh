#!/bin/bash
# make test: the kit's own test suite.  Ends with "N passed, M failed".
#
#   run.sh [PART...]	(default: every part, in this order)
#
# Each part is a file of this folder, sourced here; all count their checks
# with lib.sh.  Grading parts share one grading slot, reused between runs,
# so only what changed is rebuilt.
#
#   unit        the grader's tools on recorded logs and traces (no QEMU)
#   class       the starter scores 0 and the reference full marks, every lab
#   hidden      an instructor's hidden tests, reported apart
#   gradescope  run_autograder on a fake /autograder root
#   broken      one submission per failure class, and a batch that resumes
#   hostile     attacks on instructor grading, each stopped; the sandbox probed
#   batch       two graders on one slot, odd names, a batch killed in git am
#               and resumed, a kit change
#   mutants     known-wrong solutions, each killed by some test
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
STAGE=selftest

SELF=$BUILD/selftest
ST=$KIT/grader/selftest
PARTS=${*:-unit class hidden gradescope broken hostile batch mutants}
field() { awk -F'\t' -v k="$1" '$1 == k {print $2}' "$2"; }

# expect_tests RESULT pass|fail WHAT: every test of the lab is WHAT, and the
# run was clean (the suite ran to its end, no kernel splat).
expect_tests() {
	local f=$1 want=$2 what=$3 lab verdict
	lab=$(field lab "$f")
	verdict=$(field verdict "$f")
	if [ "$verdict" != ok ]; then
		st_ko "lab $lab, $what: the run was not clean ($verdict: $(field detail "$f"))"
		return
	fi
	while IFS=$'\t' read -r _ name got _ _ msg; do
		if [ "$got" = "$want" ]; then st_ok; else
			st_ko "lab $lab $name should ${want} on the $what, but ${got}ed: $msg"
		fi
	done < <(grep '^test	' "$f")
}

rm -rf "$SELF"
mkdir -p "$SELF"
for part in $PARTS; do
	[ -f "$ST/$part.sh" ] || die "no self-test part '$part' (parts: $(cd "$ST" && ls ./*.sh | sed 's|./||; s|\.sh$||' | tr '\n' ' '))"
	# shellcheck source=/dev/null
	. "$ST/$part.sh"
done
st_summary
