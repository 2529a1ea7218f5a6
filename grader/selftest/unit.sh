# shellcheck shell=bash
# Part of make test (run.sh): the grader's own unit tests, on the host.
# Recorded console and build logs (cases/NAME/) go through the parser, and
# the parser's results through the report writer; each output is compared
# with the expected one kept beside it (UPDATE=1 rewrites them: review the
# diff).  Each case: args (the parser's options; CASE stands for the case's
# folder), its logs (console.log and results.log: a boot's two channels, or
# the log of a build), tests (the lab's test list), expected.result and,
# when the parser must not exit 0, expected.status (3: "interrupted, grade
# this lab again alone").  A folder without args only holds logs that
# other cases share.  The cases come from real boots
# (see broken/ for the patches that made the broken ones) and a few edited
# copies of them (hang, crash, forged result lines).  Then the timeline
# renderer on recorded traces (timeline.sh).

stage "grader unit tests (recorded logs)"
TOOLS=$BUILD/grader
CASES=$ST/cases
U=$SELF/unit
mkdir -p "$U"
for c in "$CASES"/*/; do
	c=${c%/}
	name=${c##*/}
	[ -f "$c/args" ] || continue
	eval "args=($(sed "s|CASE|$c|g" "$c/args"))"
	status=0
	"$TOOLS/parse" --lab 01 --title "admission capacity" --tests "$c/tests" \
		"${args[@]}" >"$U/$name.result" || status=$?
	[ -f "$c/expected.result" ] || : >"$c/expected.result"
	st_same "parse: $name" "$c/expected.result" "$U/$name.result"
	st_check "parse: $name: exit status $status" [ "$status" = "$(cat "$c/expected.status" 2>/dev/null || echo 0)" ]
done

# The report: the table, results.json and JUnit XML of two labs' results.
"$TOOLS/report" --json "$U/results.json" --junit "$U/junit.xml" \
	"$CASES/fail-starter/expected.result" "$CASES/oops-at-boot/expected.result" \
	>"$U/table.txt"
status=$?
st_check "report: exit status 1 when a test failed" [ "$status" = 1 ]
for f in table.txt results.json junit.xml; do
	st_same "report: $f" "$ST/expected/$f" "$U/$f"
done
"$TOOLS/report" "$CASES/pass-reference/expected.result" >/dev/null
st_check "report: exit status 0 when all passed" [ $? = 0 ]

if BUILD=$BUILD "$ST/timeline.sh" >"$SELF/timeline.log" 2>&1; then st_ok "timeline renderer"; else
	cat "$SELF/timeline.log"
	st_ko "timeline renderer tests"
fi
echo "  timeline renderer: $(tail -n 1 "$SELF/timeline.log")"
