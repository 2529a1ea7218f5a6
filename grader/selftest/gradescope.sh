# shellcheck shell=bash
# Part of make test (run.sh): run_autograder on a fake /autograder root,
# results.json checked, and the check shown to fail on a broken one.

stage "gradescope: run_autograder on a fake /autograder root (lab 1)"
GS=$SELF/gradescope
mkdir -p "$GS/source"
"$KIT/grader/gradescope/pack.sh" "$GS/autograder.zip" 2>/dev/null
(cd "$GS/source" && unzip -q "$GS/autograder.zip")
# setup.sh as the image build runs it (on this suite's build folder): it
# grades the empty submission, whose failing tests must not fail the setup.
if (cd "$GS/source" && BUILD=$BUILD KSRC=$KSRC ./setup.sh) >"$GS/setup.log" 2>&1 &&
	grep -q 'autograder ready' "$GS/setup.log"; then st_ok; else
	st_ko "gradescope: setup.sh failed (log: $GS/setup.log)"
fi
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
	if "$KIT/grader/gradescope/check-results.sh" "$json" 2>/dev/null; then st_ok; else
		st_ko "gradescope $who: results.json lacks a field Gradescope requires"
	fi
	# Only results.json leaves Gradescope's container: the page says so,
	# and names no file of the container.
	if json_true '(.output | test("Only this page is kept here")) and
		([.tests[].output | test("/tmp/|/autograder/")] | any | not)' "$json"; then st_ok; else
		st_ko "gradescope $who: results.json does not say what stays in the container, or names a file there"
	fi
	score=$(jq '.score' "$json" 2>/dev/null)
	max=$(jq '[.tests[].max_score] | add' "$json" 2>/dev/null)
	want=$([ $who = reference ] && echo "$max" || echo 0)
	if [ -n "$score" ] && [ "$score" = "$want" ] && [ "${max:-0}" -gt 0 ]; then st_ok; else
		st_ko "gradescope $who: score ${score:-none} of ${max:-none}, expected $want"
	fi
done
# The check must fail when a required field goes missing.
for f in '.tests[0].visibility' '.tests[1].name' '.tests[0].score' '.tests[2].output' '.tests[0].max_score'; do
	jq "del($f)" "$GS/reference/results/results.json" >"$GS/broken.json"
	if "$KIT/grader/gradescope/check-results.sh" "$GS/broken.json" 2>/dev/null; then
		st_ko "gradescope: check-results.sh accepts a results.json without $f"
	else
		st_ok
	fi
done
