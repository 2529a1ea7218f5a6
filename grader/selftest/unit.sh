# shellcheck shell=bash
# Part of make test (run.sh): the parser and the report on the host, on
# recorded logs.  Each case (cases/NAME/) holds args (the parser's options;
# CASE stands for the case's folder), its logs (console.log and
# results.log: a boot's two channels, or the log of a build), tests (the
# lab's test list), expected.result and, for a lab the parser must hand
# back to be booted again alone, expected.status (3).  A folder without
# args only holds logs that other cases share.  The cases come from real
# boots (see broken/ for the patches that made the broken ones; the older
# ones were one console, split in two) and edited copies of them: a hang,
# a crash, forged result lines, and what a guest may print to break a
# grader - bytes that are not UTF-8, escape sequences, a CR or kernel text
# before a marked line, a CR hiding a splat, a test reported twice - a
# check failing in a test's set-up or clean-up (Check's "S" line),
# durations, a flood the kernel stalled on (flood-with-stall: the verdict
# is the flood's), and a lab that left the machine changed (changed/: a lab the
# init never began after it).  Each output is compared with the expected
# one kept beside it (UPDATE=1 rewrites them: review the diff); every
# output must be valid whatever the guest printed.  Then the report's
# other formats: the gradebook of a class with hostile names, and the
# results.json of a submission the grader could not grade.  And the similarity to 6.1
# (similarity.c) on a toy kernel file (similarity/).

stage "grader unit tests (recorded logs)"
CASES=$ST/cases
U=$SELF/unit
rm -rf "$U"
mkdir -p "$U"

# clean_text FILE: valid UTF-8, no control character but tabs and newlines
# (so no escape sequence can reach a terminal from it).
clean_text() {
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 &&
		! LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
}
valid_json() { python3 -m json.tool "$1" >/dev/null; }
valid_xml() { xmllint --noout "$1"; }
# (xmllint's HTML parser reports errors but exits 0 on most of them.)
valid_html() { [ -z "$(xmllint --html --noout "$1" 2>&1)" ]; }
# The tags of an HTML page, in order, one a line.
html_tags() { grep -o '<[/a-zA-Z!][a-zA-Z]*' "$1"; }

for c in "$CASES"/*/; do
	c=${c%/}
	name=${c##*/}
	r=$U/$name.result
	[ -f "$c/args" ] || continue
	eval "args=($(sed "s|CASE|$c|g" "$c/args"))"
	status=0
	"$TOOLS/parse" --lab 01 --title "admission capacity" --tests "$c/tests" \
		"${args[@]}" >"$r" || status=$?
	[ -f "$c/expected.result" ] || : >"$c/expected.result"
	st_same "parse: $name" "$c/expected.result" "$r"
	if [ -f "$c/expected.status" ]; then
		st_check "parse: $name: exit status $status" [ "$status" = "$(cat "$c/expected.status")" ]
		continue
	fi
	want=$(result_json "$r" | jq 'if .extra_data.labs[0].verdict == "ok" and .score == .max_score then 0 else 1 end')
	st_check "parse: $name: exit status $status" [ "$status" = "$want" ]
	st_check "parse: $name: the result is clean text" clean_text "$r"
	# Every format of the report, whatever the guest printed.
	"$TOOLS/report" --json "$U/$name.json" --junit "$U/$name.xml" --html "$U/$name.html" "$r" \
		>"$U/$name.table"
	st_check "report: $name: results.json is valid JSON" valid_json "$U/$name.json"
	st_check "report: $name: junit.xml is valid XML" valid_xml "$U/$name.xml"
	st_check "report: $name: report.html is valid HTML" valid_html "$U/$name.html"
	st_check "report: $name: the table is clean text" clean_text "$U/$name.table"
done

# The report: the table, results.json and JUnit XML of two labs' results.
"$TOOLS/report" --json "$U/results.json" --junit "$U/junit.xml" \
	"$CASES/fail-starter/expected.result" "$CASES/oops-at-boot/expected.result" \
	>"$U/table.txt"
st_check "report: exit status 1 when a test failed" [ $? = 1 ]
for f in table.txt results.json junit.xml; do
	st_same "report: $f" "$ST/expected/$f" "$U/$f"
done
"$TOOLS/report" "$CASES/pass-reference/expected.result" >/dev/null
st_check "report: exit status 0 when all passed" [ $? = 0 ]
"$TOOLS/report" "$U/no-such.result" 2>/dev/null
st_check "report: exit status 2 for a result it cannot read" [ $? = 2 ]
"$TOOLS/report" --durations many "$CASES/pass-reference/expected.result" 2>/dev/null
st_check "report: exit status 2 for a bad option" [ $? = 2 ]
st_check "report: --json - writes only the JSON" \
	json_true '.score == 6' <(result_json "$CASES/pass-reference/expected.result")
"$TOOLS/parse" --lab 01 --tests "$CASES/no-apply/tests" --verdict no-such-verdict 2>/dev/null
st_check "parse: exit status 2 for a verdict it does not know" [ $? = 2 ]

# Durations: the guest's TIME lines, the slowest listed on request, and in
# both machine formats.
r=$CASES/durations/expected.result
"$TOOLS/report" --durations 3 --json "$U/durations.json" --junit "$U/durations.xml" "$r" \
	>"$U/durations.txt"
st_same "report: --durations 3" "$ST/expected/durations.txt" "$U/durations.txt"
st_check "report: each test's duration in results.json (extra_data)" json_true \
	'[.tests[].extra_data.duration_us] == [912345, 30250, 1204000, 15, 3170000, null]' "$U/durations.json"
st_check "report: an unknown duration is left out" \
	json_true '.tests[5].extra_data | has("duration_us") | not' "$U/durations.json"
st_check "report: each test's time in junit.xml" [ "$(xmllint --xpath \
	'string(//testcase[@name="test_partition_little"]/@time)' "$U/durations.xml")" = 3.170000 ]

# The report links a timeline only once it is drawn, hidden tests' too.
m=SL00112233445566778899aabb cm=SC00112233445566778899aabb
tr=$U/traces
mkdir -p "$tr"
echo test_a >"$tr/tests"
for sec in 01 01h; do
	printf "$m %s\n" "BEGIN $sec" "TRACE test_a cpu 0 512" "TRACE test_a run 7 0 0 1500" \
		"t.c:1:P:test_a:test_a:0: Passed" "TIME test_a 2000" "END $sec"
done >"$tr/results.log"
printf "schedlab: $cm %s\n" "begin 01" "end 01" "begin 01h" "end 01h" "done" >"$tr/console.log"
for sec in 01 01h; do
	"$TOOLS/parse" --lab $sec --title traced --tests "$tr/tests" --mark $m --cmark $cm --status 0 \
		--alone --console "$tr/console.log" --results "$tr/results.log" --traces "$tr/lab$sec" \
		>"$tr/lab$sec.result"
done
st_check "parse: the trace of lab 01's test is written" [ -s "$tr/lab01.test_a.trace" ]
st_check "parse: the trace of the hidden tests' test is written" [ -s "$tr/lab01h.test_a.trace" ]
st_xfail "report: no timeline before it is drawn" grep -q timeline: <("$TOOLS/report" "$tr/lab01.result")
"$TOOLS/timeline" "$tr/lab01h.test_a.trace" "$tr/lab01h.test_a.svg"
st_check "report: the drawn timeline is linked" \
	grep -qF "timeline: $tr/lab01h.test_a.svg" <("$TOOLS/report" "$tr/lab01h.result")
st_check "report: and named in results.json" json_true \
	'.tests[0].output | endswith("Timeline (SVG): '"$tr"'/lab01h.test_a.svg")' <(result_json "$tr/lab01h.result")
# Where only results.json leaves the machine (Gradescope): it says so, and
# names the make grade that draws a public test's timeline, not its path.
"$TOOLS/timeline" "$tr/lab01.test_a.trace" "$tr/lab01.test_a.svg"
st_check "report: --artifacts none, the page says what stays behind and how to make it" json_true \
	'(.output | test("Only this page is kept here.*make grade writes them to build/results/")) and
	 (.tests[0].output | endswith("make grade LAB=1 TEST=test_a draws it (build/results/lab01.test_a.svg)")) and
	 (.tests[1].output | test("build/results|'"$tr"'") | not)' \
	<("$TOOLS/report" --artifacts none --json - "$tr/lab01.result" "$tr/lab01h.result" || [ $? = 1 ])
st_xfail "report: --artifacts takes kept or none" "$TOOLS/report" --artifacts some --json - "$tr/lab01.result"
"$TOOLS/report" --html "$tr/report.html" "$tr/lab01h.result" >/dev/null
st_check "report: and shown inline in report.html, the SVG as it was drawn" \
	cmp -s "$tr/lab01h.test_a.svg" <(grep -o 'data:image/svg+xml;base64,[^"]*' "$tr/report.html" |
		cut -d, -f2 | base64 -d)

# report.html changes no markup whatever a test's name, message or a lab's
# title carry (the text is shown, nothing runs): the same page with plain
# words and with markup, quotes and a bidirectional override has the same
# tags, and the override shows as its code.
ht=$U/html
mkdir -p "$ht"
for kind in plain hostile; do
	if [ $kind = plain ]; then w=word; else w=$'<script>alert(1)</script></pre>"onload=alert(1) x=\'\xe2\x80\xae'; fi
	printf 'lab\t01\t%s\nverdict\tok\ndetail\t%s\ntest\ttest_%s\tfail\t0\t1\t-1\t%s\n' "$w" "$w" "$w" "$w" \
		>"$ht/$kind.result"
	"$TOOLS/report" --title "$w" --html "$ht/$kind.html" "$ht/$kind.result" >/dev/null
done
html_tags "$ht/plain.html" >"$ht/plain.tags"
html_tags "$ht/hostile.html" >"$ht/hostile.tags"
st_same "report: report.html's tags are the same with markup in every text" "$ht/plain.tags" "$ht/hostile.tags"
st_check "report: report.html shows a bidirectional override as its code" \
	grep -qF '&lt;U+202E&gt;' "$ht/hostile.html"
st_xfail "report: report.html has no bidirectional override" grep -q $'\xe2\x80\xae' "$ht/hostile.html"

# A class's gradebook: one row a student whatever the name, the worst
# verdict (not the first that is not ok), the CSV read back by Python's
# csv module with no cell a spreadsheet would take for a formula, the JSON
# by jq.  Lab 02 is made here: two tests that pass, or a panic.
gb=$U/class
names=(-alice 'a,b' '=1+1' $'new\nline' 'quo"te' $'\ttab' '@dup' slow)
lab01=(pass-reference fail-starter pass-reference warn-in-lab no-build pass-reference duplicate inconclusive)
lab02=(pass pass - panic pass pass pass pass)
printf '%s\n' test_one test_two >"$gb.tests"
for kind in pass panic; do
	printf "$m %s\n" "BEGIN 02" "t.c:1:P:test_one:test_one:0: Passed" \
		"t.c:2:P:test_two:test_two:0: Passed" "END 02" >"$gb.$kind.results"
	{
		echo "schedlab: $cm begin 02"
		[ $kind = pass ] || echo "[    9.000000] Kernel panic - not syncing: Oops: Fatal exception"
		echo "schedlab: $cm end 02"
	} >"$gb.$kind.console"
done
dirs=()
for i in "${!names[@]}"; do
	d=$gb/${names[$i]}
	dirs+=("$d")
	mkdir -p "$d"
	cp "$CASES/${lab01[$i]}/expected.result" "$d/lab01.result"
	[ "${lab02[$i]}" = - ] || "$TOOLS/parse" --lab 02 --title two --tests "$gb.tests" --mark $m \
		--cmark $cm --status "$([ "${lab02[$i]}" = pass ] && echo 0 || echo 1)" --alone \
		--console "$gb.${lab02[$i]}.console" --results "$gb.${lab02[$i]}.results" >"$d/lab02.result"
done
# A submission's similarity to 6.1, beside its score.
printf 'similarity\t3\t4\n' >>"$gb/-alice/lab01.result"
# Its change map: a function outside the labs, in its own column.
printf 'changed\tkernel/sched/core.c:sched_fork\nadded\tkernel/sched/core.c:helper\n' >"$gb/-alice/changes.txt"
# The isolation a student's grading ran in (grade-submission.sh writes it).
echo uid >"$gb/slow/isolation"
"$TOOLS/report" --gradebook-csv "$gb/gradebook.csv" --gradebook-json "$gb/gradebook.json" \
	--class-html "$gb/class.html" --class-json "$gb/class.json" --labs "01 02" -- "${dirs[@]}" \
	>"$gb/table.txt"
st_check "gradebook: exit status 1 (not every student passed)" [ $? = 1 ]
st_check "gradebook: the table is clean text" clean_text "$gb/table.txt"
st_check "gradebook: CSV, every student once with the right grade and the worst verdict" \
	python3 - "$gb/gradebook.csv" <<'EOF'
import csv, sys
want = {
    "'-alice": ["6", "75", "2", "", "8", "8", "ok", "0", "", "kernel/sched/core.c:sched_fork"],
    "a,b": ["0", "", "2", "", "2", "8", "ok", "0", "", ""],
    "'=1+1": ["6", "", "0", "", "6", "8", "not-graded", "0", "", ""],
    "new\nline": ["0", "", "0", "", "0", "8", "panic", "0", "", ""],
    'quo"te': ["0", "", "2", "", "2", "8", "no-build", "0", "", ""],
    "'\ttab": ["6", "", "2", "", "8", "8", "ok", "0", "", ""],
    "'@dup": ["0", "", "2", "", "2", "8", "duplicate", "0", "", ""],
    "slow": ["5", "", "2", "", "7", "7", "ok", "1", "uid", ""],
}
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f, strict=True))
ok = rows[0] == ["student", "lab01", "lab01 similarity %", "lab02", "lab02 similarity %",
                "total", "max", "status", "undecided tests", "isolation", "changed outside the labs"]
got = {row[0]: row[1:] for row in rows[1:]}
ok &= len(rows) == len(want) + 1 and got == want
ok &= not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for row in rows for cell in row if cell)
if not ok:
    print("        got:", rows)
sys.exit(0 if ok else 1)
EOF
st_check "gradebook: JSON, the names as they are" diff -u - <(jq -c '.[] | [.student, .total, .max_score, .status]' "$gb/gradebook.json") <<'EOF'
["-alice",8,8,"ok"]
["a,b",2,8,"ok"]
["=1+1",6,8,"not-graded"]
["new\nline",0,8,"panic"]
["quo\"te",2,8,"no-build"]
["\ttab",8,8,"ok"]
["@dup",2,8,"duplicate"]
["slow",7,7,"ok"]
EOF
st_check "gradebook: JSON, the similarity beside the score" json_true \
	'.[0].labs.lab01.similarity == {"matched": 3, "counted": 4, "percent": 75} and .[1].labs.lab01.similarity == null' \
	"$gb/gradebook.json"
st_check "gradebook: the table shows the similarity" grep -q '6/6 ~75%' "$gb/table.txt"
st_check "gradebook: an undecided test and the isolation, in the JSON" json_true \
	'.[7].undecided == 1 and .[7].isolation == "uid" and .[0].undecided == 0 and .[0].isolation == ""' \
	"$gb/gradebook.json"
st_check "gradebook: the table says a test was undecided" grep -q '1 test(s) undecided' "$gb/table.txt"
st_check "gradebook: the functions changed outside the labs, in the JSON and the table" json_true \
	'.[0].changed_outside == ["kernel/sched/core.c:sched_fork"] and .[1].changed_outside == []' "$gb/gradebook.json"
st_check "gradebook: the table says to review them" grep -q 'changes 1 function(s) outside the labs: review' "$gb/table.txt"
# class.html: the gradebook's numbers, each student's report a link away
# (the name as one URL component), the markup in the names shown as text.
st_check "class.html: valid HTML" valid_html "$gb/class.html"
st_check "class.html: each name a link of its own, encoded" \
	grep -qF 'href="%3D1%2B1/report.html"' "$gb/class.html"
st_check "class.html: the most failed test with how many failed it" \
	grep -qE '<h3>lab01/[a-z_]+: [0-9]+ of 8 failed</h3>' "$gb/class.html"
html_tags "$gb/class.html" | sort -u >"$gb/class.tags"
st_same "class.html: no tag but the page's own" "$ST/expected/class.tags" "$gb/class.tags"
# class.json: class.html's numbers, for scripts.
class_pages_agree "class pages (recorded)" "$gb"
st_check "class.json: the most failed test as class.html shows it" grep -qF \
	"$(jq -r '.tests[0] | "<h3>lab\(.lab)/\(.test): \(.failed) of \(.ran) failed</h3>"' "$gb/class.json")" \
	"$gb/class.html"

# The results.json of a submission the grader could not grade: valid, and
# accepted by Gradescope (check-results.sh), whatever the log holds.
printf '%s\n' 'make: entering' $'\tTAB "quoted" back\\slash' $'\e[31mred\e[0m \e]0;title\a' \
	$'not UTF-8: \xff\xfe' 'the last line' >"$U/grade.log"
st_check "fallback: written" "$TOOLS/report" --fallback "$U/grade.log" --json "$U/fallback.json"
st_check "fallback: valid JSON" valid_json "$U/fallback.json"
st_check "fallback: accepted by check-results.sh" "$KIT/grader/gradescope/check-results.sh" "$U/fallback.json"
st_check "fallback: says so, and ends with the log's end, cleaned" json_true \
	'.score == 0 and (.output | contains("could not grade") and endswith("the last line") and (test("\u001b") | not))' \
	"$U/fallback.json"
"$TOOLS/report" --fallback "$U/no-such.log" --json "$U/fallback-nolog.json"
st_check "fallback: without a log, still accepted" "$KIT/grader/gradescope/check-results.sh" "$U/fallback-nolog.json"

# The similarity to 6.1 on a toy kernel file: a starter patch that hollows
# out two functions and removes a third, and submissions that copy its
# lines back (as they were, spaced otherwise, twice), write their own, or
# copy into a helper outside the hollowed functions.
SIM=$ST/similarity
"$TOOLS/similarity" --functions "$SIM/starter.patch" >"$U/similarity.functions"
st_same "similarity: the hollowed functions" "$SIM/expected.functions" "$U/similarity.functions"
for d in "$SIM"/*.diff; do
	printf '%s\t' "$(basename "$d" .diff)"
	"$TOOLS/similarity" "$SIM/starter.patch" "$d"
done >"$U/similarity.txt"
st_same "similarity: each submission's" "$SIM/expected.txt" "$U/similarity.txt"
"$TOOLS/similarity" "$SIM/starter.patch" "$U/no-such.diff" 2>/dev/null
st_check "similarity: exit status 2 for a diff it cannot read" [ $? = 2 ]
# The change map: what each changes outside the hollowed functions (a
# helper it adds; a function no lab hollowed and an #include, in outside).
for d in "$SIM"/*.diff; do
	"$TOOLS/similarity" --changes "$d" "$SIM/starter.patch" | sed "s/^/$(basename "$d" .diff)\t/"
done >"$U/similarity.changes"
st_same "similarity: each submission's change map" "$SIM/expected.changes" "$U/similarity.changes"
# The added lines the review reads, each with its place and function.
"$TOOLS/similarity" --added "$SIM/outside.diff" >"$U/similarity.added"
st_same "similarity: the added lines, placed" "$SIM/expected.added" "$U/similarity.added"
# Its line in a lab's result: beside the score in the table, and in
# results.json as a test of no points that students never see.
r=$U/similar.result
{ cat "$CASES/fail-starter/expected.result"; "$TOOLS/similarity" "$SIM/starter.patch" "$SIM/own.diff"; } >"$r"
st_check "report: the similarity beside the lab's score" \
	grep -q '^lab 01 .* 0/6 *similarity to 6.1: 25% (1 of 4 lines, not scored)$' <("$TOOLS/report" "$r")
st_check "report: the similarity, hidden, in results.json" json_true \
	'[.tests[] | select(.extra_data.similarity)] == [.tests[-1]] and .tests[-1].visibility == "hidden" and
	 .tests[-1].max_score == 0 and .extra_data.labs[0].similarity.percent == 25' <(result_json "$r")

# The uid isolation's way to the kit (sandbox.sh), said and not done: with
# a kit in a home of mode 0700 and each $HOME a machine may have, nothing
# outside that scratch tree is ever touched (never /, /tmp or a folder
# elsewhere, whatever $HOME is).
# In /tmp, whose way is open to all, wherever the kit is (its own way may
# be closed, as root's clone in /root is).
OW=$(mktemp -d /tmp/schedlab-open-way.XXXXXX)
chmod 0755 "$OW"
mkdir -p "$OW/root/kit" "$OW/root/.ssh" "$OW/elsewhere"
: >"$OW/root/.bashrc"
chmod 0700 "$OW/root"
# open_way HOME: what _sandbox_open_way would change, a line each.
open_way() {
	(. "$KIT/grader/sandbox.sh" && KIT=$OW/root/kit HOME=$1 SANDBOX_CHMOD="echo chmod" _sandbox_open_way)
}
for home in / /tmp "$OW/no-such-home" "$OW/elsewhere" "$OW/root/kit" "$OW/root"; do
	out=$(open_way "$home")
	st_check "open way, HOME=${home#"$OW"/}: only this tree's folders changed" \
		bash -c '! grep -v " $1/" <<<"$2" | grep -q .' - "$OW" "$out"
	st_check "open way, HOME=${home#"$OW"/}: the kit's folder searchable" grep -qxF "chmod o+x $OW/root/kit" <<<"$out"
done
# closed MODE: the files "chmod MODE" is given, a line each, sorted.
closed() { grep "^chmod $1 " <<<"$out" | cut -d' ' -f3- | tr ' ' '\n' | sort | paste -sd' '; }
out=$(open_way "$OW/elsewhere")
st_check "open way: a closed folder on the way becomes searchable, the rest in it closed to others" \
	bash -c '[ "$2" = "$1/root/.bashrc $1/root/.ssh" ] && grep -qxF "chmod o-rw,o+x $1/root" <<<"$3" &&
		grep -qxF "chmod go-rwx $1/elsewhere" <<<"$3"' - "$OW" "$(closed o-rwx)" "$out"
out=$(open_way "$OW/root")
st_check "open way: \$HOME on the way is closed to group and others but the way" \
	bash -c '[ "$2" = "$1/root/.bashrc $1/root/.ssh" ] && grep -qxF "chmod go-rw,o+x $1/root" <<<"$3"' \
	- "$OW" "$(closed go-rwx)" "$out"
rm -rf "$OW"
