# shellcheck shell=bash
# Part of make test (run.sh): an instructor's hidden tests (selftest/hidden/)
# graded with lab 1, apart from its public tests.  Needs the class part.

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
