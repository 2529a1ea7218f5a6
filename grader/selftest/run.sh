#!/bin/bash
# make test: the kit's own test suite.
#
#  1. the grader's unit tests (unit.sh: recorded logs -> parser -> report);
#  2. a self-test tree ($BUILD/selftest/tree, a git worktree of the kernel
#     repository, never the student's checkout) reset to the starter: every
#     lab test must fail there, on a kernel that ran the suite cleanly;
#  3. the reference patches committed on top, one lab at a time: every test
#     must pass.
# The build folder is reused between runs, so only what changed is rebuilt.
# Ends with "N passed, M failed".
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
STAGE=selftest

SELF=$BUILD/selftest
TREE=$SELF/tree
OBJDIR=$SELF/obj
pass=0 fail=0
failed=()

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); failed+=("$1"); echo "  FAIL  $1"; }

stage "grader unit tests"
if "$KIT/grader/selftest/unit.sh" >"$SELF.unit.log" 2>&1; then
	ok
else
	cat "$SELF.unit.log"
	ko "grader unit tests"
fi
grep 'unit tests:' "$SELF.unit.log" | sed 's/^/  /'

# expect_all RESULT_DIR pass|fail WHAT: every test of every lab is WHAT,
# and each lab's run was clean (the suite ran, no kernel splat).
expect_all() {
	local dir=$1 want=$2 what=$3 f
	for f in "$dir"/lab*.result; do
		local lab verdict
		lab=$(awk -F'\t' '$1 == "lab" {print $2}' "$f")
		verdict=$(awk -F'\t' '$1 == "verdict" {print $2}' "$f")
		if [ "$verdict" != ok ]; then
			ko "lab $lab on the $what: the run was not clean ($verdict: $(awk -F'\t' '$1 == "detail" {print $2}' "$f"))"
			continue
		fi
		while IFS=$'\t' read -r _ name got _ _ msg; do
			if [ "$got" = "$want" ]; then
				ok
			else
				ko "lab $lab $name should ${want} on the $what, but ${got}ed: $msg"
			fi
		done < <(grep '^test	' "$f")
	done
}

mkdir -p "$SELF"
if [ ! -e "$TREE/.git" ]; then
	stage "making the self-test tree $TREE"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$TREE" base ||
		die "cannot make a worktree of $KSRC"
else
	git -C "$TREE" checkout -q -f --detach base
	git -C "$TREE" clean -q -fdx
fi
"$KIT/grader/apply.sh" --tree "$TREE" --commit starter ||
	die "the starter patches do not apply to 6.1"

stage "starter tree: every test must fail"
"$KIT/grader/grade.sh" --src "$TREE" --obj "$OBJDIR" --out "$SELF/starter" \
	--title "self-test: starter tree" >"$SELF/starter.log" 2>&1
cat "$SELF/starter.log" | grep -E '^(lab|score)' | sed 's/^/  /'
expect_all "$SELF/starter" fail "starter"

stage "reference tree: every test must pass"
if "$KIT/grader/apply.sh" --tree "$TREE" --commit reference; then
	"$KIT/grader/grade.sh" --src "$TREE" --obj "$OBJDIR" --out "$SELF/reference" \
		--title "self-test: reference tree" >"$SELF/reference.log" 2>&1
	grep -E '^(lab|score)' "$SELF/reference.log" | sed 's/^/  /'
	expect_all "$SELF/reference" pass "reference"
else
	ko "the reference patches do not apply to the starter tree"
fi

echo
if [ "$fail" != 0 ]; then
	echo "failed checks:"
	printf '  %s\n' "${failed[@]}"
	echo "reports: $SELF/starter.log $SELF/reference.log"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
