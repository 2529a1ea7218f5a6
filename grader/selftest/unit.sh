#!/bin/bash
# The grader's own unit tests, on the host: recorded console and build logs
# (grader/selftest/cases/NAME/) go through the parser, and the parser's
# results through the report writer; each output is compared with the
# expected one kept beside it.
#
#   unit.sh            run them
#   UPDATE=1 unit.sh   rewrite the expected outputs (review the diff!)
#
# Each case: console.log, args (the parser's options), tests (the lab's
# test list) and expected.result.  The cases come from real boots (see
# grader/selftest/broken/ for the patches that made the broken ones) and a
# few edited copies of them (hang, crash, forged result lines).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
TOOLS=$BUILD/grader
CASES=$KIT/grader/selftest/cases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

check() {	# check NAME EXPECTED ACTUAL
	if [ -n "${UPDATE:-}" ]; then
		cp "$3" "$2"
	fi
	if diff -u "$2" "$3" >"$tmp/diff"; then
		pass=$((pass + 1))
		echo "  ok    $1"
	else
		fail=$((fail + 1))
		echo "  FAIL  $1"
		sed 's/^/        /' "$tmp/diff"
	fi
}

for c in "$CASES"/*/; do
	c=${c%/}
	name=${c##*/}
	eval "args=($(cat "$c/args"))"
	"$TOOLS/parse" --lab 01 --title "admission capacity" --tests "$c/tests" \
		"${args[@]}" "$c/console.log" >"$tmp/$name.result"
	check "parse: $name" "$c/expected.result" "$tmp/$name.result"
done

# The report: the table, results.json and JUnit XML of two labs' results.
"$TOOLS/report" --json "$tmp/results.json" --junit "$tmp/junit.xml" \
	"$CASES/fail-starter/expected.result" "$CASES/oops-at-boot/expected.result" \
	>"$tmp/table.txt"
status=$?
check "report: exit status 1 when a test failed" <(echo 1) <(echo $status)
for f in table.txt results.json junit.xml; do
	check "report: $f" "$KIT/grader/selftest/expected/$f" "$tmp/$f"
done
"$TOOLS/report" "$CASES/pass-reference/expected.result" >/dev/null
check "report: exit status 0 when all passed" <(echo 0) <(echo $?)

echo "grader unit tests: $pass passed, $fail failed"
[ "$fail" = 0 ]
