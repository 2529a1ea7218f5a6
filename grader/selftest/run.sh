#!/bin/bash
# make test: the kit's own test suite.  Ends with "N passed, M failed".
#
#  1. unit    the grader's parser and report on recorded logs (unit.sh),
#             the timeline renderer on recorded traces (timeline.sh);
#  2. class   a batch of sample submissions made here, graded by
#             grade-all.sh as an instructor would: the starter (every lab
#             test must fail, on a clean run) and the reference (every test
#             must pass), on every lab;
#  3. broken  one submission per failure class (does not apply, does not
#             build, panics, hangs, changes a forbidden file, prints fake
#             result lines, WARNs), graded on lab 1: each must get its
#             verdict and score 0; a second run must resume, not regrade;
#     hidden  an instructor's hidden tests (selftest/hidden/) graded with a
#             lab, apart from its public tests; gradescope  run_autograder
#             on a fake /autograder root, results.json checked;
#  4. mutants known-wrong variants of the reference patches (mutants/NN-*):
#             each must build, boot and cost its lab at least one test;
#             prints the kill ratio.
# Everything is graded in one grading slot, reused between runs, so only
# what changed is rebuilt.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
STAGE=selftest

SELF=$BUILD/selftest
ST=$KIT/grader/selftest
pass=0 fail=0
failed=()
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); failed+=("$1"); echo "  FAIL  $1"; }
field() { awk -F'\t' -v k="$1" '$1 == k {print $2}' "$2"; }

rm -rf "$SELF"
mkdir -p "$SELF"

stage "1/4 grader unit tests"
if "$ST/unit.sh" >"$SELF/unit.log" 2>&1; then ok; else cat "$SELF/unit.log"; ko "grader unit tests"; fi
grep 'unit tests:' "$SELF/unit.log" | sed 's/^/  /'
if BUILD=$BUILD "$ST/timeline.sh" >"$SELF/timeline.log" 2>&1; then ok; else
	cat "$SELF/timeline.log"
	ko "timeline renderer tests"
fi
echo "  timeline renderer: $(tail -n 1 "$SELF/timeline.log")"

# expect_tests RESULT pass|fail WHAT: every test of the lab is WHAT, and the
# run was clean (the suite ran to its end, no kernel splat).
expect_tests() {
	local f=$1 want=$2 what=$3 lab verdict
	lab=$(field lab "$f")
	verdict=$(field verdict "$f")
	if [ "$verdict" != ok ]; then
		ko "lab $lab, $what: the run was not clean ($verdict: $(field detail "$f"))"
		return
	fi
	while IFS=$'\t' read -r _ name got _ _ msg; do
		if [ "$got" = "$want" ]; then ok; else
			ko "lab $lab $name should ${want} on the $what, but ${got}ed: $msg"
		fi
	done < <(grep '^test	' "$f")
}

stage "2/4 the starter and the reference, as submissions, on every lab"
mkdir -p "$SELF/class/reference"
: >"$SELF/class/starter.patch"
cp "$KIT"/reference-patches/*.patch "$SELF/class/reference/"
"$KIT/grader/grade-all.sh" --submissions "$SELF/class" --out "$SELF/class-out" -j 1 \
	>"$SELF/class.log" 2>&1
sed 's/^/  /' "$SELF/class-out/gradebook.csv"
for lab in $(all_labs); do
	for who in starter reference; do
		r=$SELF/class-out/$who/lab$lab.result
		if [ ! -f "$r" ]; then ko "lab $lab: no result for the $who"; continue; fi
		if [ $who = starter ]; then
			expect_tests "$r" fail "starter"
		else
			expect_tests "$r" pass "reference"
		fi
	done
done

stage "timeline: lab 3's busy task, from a little CPU's lane to a big one's"
for who in reference starter; do
	svg=$SELF/class-out/$who/lab03.test_busy_task_moves_at_first_throttle.svg
	if [ ! -f "$svg" ]; then ko "timeline: no SVG for lab 3 on the $who"; continue; fi
	if BUILD=$BUILD "$ST/timeline.sh" --moves "$svg" 2>"$SELF/timeline-$who.log"; then moved=yes; else moved=no; fi
	want=$([ $who = reference ] && echo yes || echo no)
	if [ $moved = "$want" ]; then ok; else
		ko "timeline: on the $who the task's lane change is '$moved', expected '$want' ($svg)"
	fi
done
echo "  reference: $SELF/class-out/reference/lab03.test_busy_task_moves_at_first_throttle.svg"

stage "hidden tests: graded with lab 1, reported apart"
make -s -C "$KIT" initramfs HIDDEN_TESTS="$ST/hidden" >"$SELF/hidden-build.log" 2>&1
for who in starter reference; do
	sub=$SELF/class/$who.patch
	[ $who = starter ] || sub=$SELF/class/reference
	INITRAMFS=$BUILD/initramfs-hidden.cpio HIDDEN_DIR=$BUILD/hidden \
		"$KIT/grader/grade-submission.sh" --submission "$sub" --out "$SELF/hidden-$who" \
		--labs 01 >"$SELF/hidden-$who.log" 2>&1
	r=$SELF/hidden-$who/lab01h.result
	if [ -f "$r" ]; then
		expect_tests "$r" "$([ $who = starter ] && echo fail || echo pass)" "$who (hidden tests)"
	else
		ko "hidden tests: no lab01h result for the $who"
	fi
	if [ "$(jq -r '[.tests[] | select(.name | startswith("lab01h/")) | .visibility] | unique | join(",")' \
		"$SELF/hidden-$who/results.json" 2>/dev/null)" = after_published ]; then ok; else
		ko "hidden tests: results.json does not hide them from students ($who)"
	fi
done

stage "gradescope: run_autograder on a fake /autograder root (lab 1)"
GS=$SELF/gradescope
mkdir -p "$GS/source"
"$KIT/grader/gradescope/pack.sh" "$GS/autograder.zip" 2>/dev/null
(cd "$GS/source" && unzip -q "$GS/autograder.zip")
for who in starter reference; do
	root=$GS/$who
	mkdir -p "$root/submission"
	if [ $who = reference ]; then
		cp "$KIT/reference-patches/01-"*.patch "$root/submission/"
	else
		: >"$root/submission/empty.patch"
	fi
	AUTOGRADER_ROOT=$root BUILD=$BUILD KSRC=$KSRC LAB=1 "$GS/source/run_autograder" \
		>"$GS/$who.log" 2>&1
	json=$root/results/results.json
	if "$KIT/grader/gradescope/check-results.sh" "$json" 2>/dev/null; then ok; else
		ko "gradescope $who: results.json lacks a field Gradescope requires"
	fi
	score=$(jq '.score' "$json" 2>/dev/null)
	max=$(jq '[.tests[].max_score] | add' "$json" 2>/dev/null)
	want=$([ $who = reference ] && echo "$max" || echo 0)
	if [ -n "$score" ] && [ "$score" = "$want" ] && [ "${max:-0}" -gt 0 ]; then ok; else
		ko "gradescope $who: score ${score:-none} of ${max:-none}, expected $want"
	fi
done
# The check must fail when a required field goes missing.
for f in '.tests[0].visibility' '.tests[1].name' '.tests[0].score' '.tests[2].output' '.tests[0].max_score'; do
	jq "del($f)" "$GS/reference/results/results.json" >"$GS/broken.json"
	if "$KIT/grader/gradescope/check-results.sh" "$GS/broken.json" 2>/dev/null; then
		ko "gradescope: check-results.sh accepts a results.json without $f"
	else
		ok
	fi
done

stage "3/4 one broken submission per failure class (lab 1)"
B=$SELF/broken
mkdir -p "$B"
for p in no-apply no-build oops-at-boot hang-at-boot forbidden-file fake-results warn-in-admission; do
	cp "$ST/broken/$p.patch" "$B/"
done
batch() { BOOT_TIMEOUT=60 "$KIT/grader/grade-all.sh" --submissions "$B" --out "$SELF/broken-out" --labs 01 -j 1; }
batch >"$SELF/broken.log" 2>&1
sed 's/^/  /' "$SELF/broken-out/gradebook.csv"
while read -r name want; do
	r=$SELF/broken-out/$name/lab01.result
	got=$(field verdict "$r" 2>/dev/null)
	score=$(awk -F'\t' '$1 == "test" {s += $4} END {print s + 0}' "$r" 2>/dev/null)
	if [ "$got" = "$want" ] && [ "$score" = 0 ]; then ok; else
		ko "$name: verdict '$got' with score $score, expected '$want' with 0"
	fi
	if grep -q "^$name,.*,$want\$" "$SELF/broken-out/gradebook.csv"; then ok; else
		ko "$name: the gradebook does not say $want"
	fi
done <<'EOF2'
no-apply no-apply
no-build no-build
oops-at-boot panic
hang-at-boot hang
forbidden-file rejected
fake-results ok
warn-in-admission warning
EOF2
if grep -q 'without this run.s marker were ignored' "$SELF/broken-out/fake-results/lab01.result"; then
	ok
else
	ko "fake-results: the report does not say that unmarked result lines were ignored"
fi
batch >"$SELF/broken-again.log" 2>&1
n=$(grep -c 'already graded' "$SELF/broken-again.log")
if [ "$n" = 7 ]; then ok; else ko "a second batch run regraded: $n of 7 were skipped"; fi

stage "4/4 mutants of the reference patches"
killed=0 total=0
for m in "$ST"/mutants/[0-9][0-9]-*.patch; do
	[ -e "$m" ] || continue
	name=$(basename "$m" .patch)
	lab=${name%%-*}
	sub=$SELF/mutants/$name
	mkdir -p "$sub"
	cp "$KIT"/reference-patches/*.patch "$sub/"
	cp "$m" "$sub/zz-mutant.patch"
	"$KIT/grader/grade-submission.sh" --submission "$sub" --out "$SELF/mutants-out/$name" \
		--labs "$lab" >"$SELF/mutants-out.$name.log" 2>&1
	r=$SELF/mutants-out/$name/lab$lab.result
	total=$((total + 1))
	verdict=$(field verdict "$r" 2>/dev/null)
	lost=$(awk -F'\t' '$1 == "test" && $3 == "fail" {n++} END {print n + 0}' "$r" 2>/dev/null)
	# Killed: the mutant built and booted, and its lab lost points (to
	# its tests, or to the kernel splat the mistake caused).
	case $verdict in no-apply | no-build | rejected | "") lost=0 ;; esac
	if [ "$lost" -gt 0 ]; then
		killed=$((killed + 1))
		ok
		note=
		[ "$verdict" = ok ] || note="; verdict: $verdict"
		echo "  killed    $name ($lost test(s) failed$note)"
	else
		ko "mutant $name survived (verdict ${verdict:-none}, $lost failing tests)"
	fi
done
echo "  mutants killed: $killed/$total"

echo
if [ "$fail" != 0 ]; then
	echo "failed checks:"
	printf '  %s\n' "${failed[@]}"
	echo "logs: $SELF/"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
