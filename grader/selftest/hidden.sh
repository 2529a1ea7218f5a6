# shellcheck shell=bash
# Part of make test (run.sh): an instructor's hidden tests (selftest/hidden/)
# graded with lab 1, apart from its public tests; and hidden tests that
# leave the machine changed.  Needs the class part.

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
		st_ko "hidden tests: no lab01h result for the $who"
	fi
	if [ "$(jq -r '[.tests[] | select(.name | startswith("lab01h/")) | .visibility] | unique | join(",")' \
		"$SELF/hidden-$who/results.json" 2>/dev/null)" = after_published ]; then st_ok; else
		st_ko "hidden tests: results.json does not hide them from students ($who)"
	fi
done

# Hidden tests that leave CPU 3 offline (selftest/leaves-changed/): lab 1
# with them, lab 2 after; the init ends the first boot after lab 1, whose
# result says what it left, and lab 2 is graded in a boot of its own.
stage "a lab that leaves the machine changed: the labs after it in boots of their own"
make -s -C "$KIT" initramfs HIDDEN_TESTS="$ST/leaves-changed" >"$SELF/changed-build.log" 2>&1
C=$SELF/changed-reference
INITRAMFS=$BUILD/initramfs-hidden.cpio HIDDEN_DIR=$BUILD/hidden \
	"$KIT/grader/grade-submission.sh" --submission "$SELF/class/reference" --out "$C" \
	--labs "01 02" >"$C.log" 2>&1
expect_tests "$C/lab01.result" pass "reference (with hidden tests that leave a CPU offline)"
expect_tests "$C/lab02.result" pass "reference (after a lab that left a CPU offline)"
expect_tests "$C/lab01h.result" pass "reference (hidden tests that leave a CPU offline)"
st_check "changed machine: lab 1's result says CPU 3 was left offline" \
	grep -q "online reads '0-2', at boot '0-3'" <(lab_field "$C/lab01.result" detail)
st_check "changed machine: lab 2 did not run in the first boot, and ran in a second" \
	eval '! grep -q "begin 02" "$C/boot1.console.log" && grep -q "begin 02" "$C/boot2.console.log"'
st_check "changed machine: the stage lines say why lab 2 was booted again" \
	grep -q 'lab 02: graded again in a boot of its own (.*left the machine changed' "$C.log"
