# shellcheck shell=bash
# Part of make test (run.sh): the commands for looking inside a kernel, and
# what make grade tells a script.  Best after the class part (it grades the
# starter and the reference as submissions in the same warm slot).
#
#   make shell   driven through expect (shell.exp): the tools answer, rt-app
#                runs a deadline task while trace-cmd records it, one lab
#                test runs by hand, poweroff ends it; and fed by a pipe;
#   make gdb     HANDOUT's session in gdb's batch mode on the debug build:
#                a breakpoint on a lab function, hit when a command typed
#                through make console (console.exp) calls it, the backtrace,
#                the kernel's gdb helpers ($lx_per_cpu, lx-dmesg);
#   TEST=        exactly one test runs, and only it is scored;
#   exit status  0 all passed, 1 a test failed, 2 grader error: in
#                $OUT/status, in make's "Error N", in results.json's
#                presence, and in the GitHub summary.
#
# The first run builds the debug kernel from scratch ($BUILD/obj-debug),
# and, run without the class part before it, grading slot 0.
EX=$SELF/explore
mkdir -p "$EX"

stage "explore: make shell, through expect"
t0=$SECONDS
# checks_of FILE WHAT N: an expect script's "ok ..." and "FAIL ..." lines,
# counted; there must be N "ok" lines.
checks_of() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok "*) st_ok "${line#ok }" ;;
		"FAIL "*) st_ko "${line#FAIL }" ;;
		esac
	done <"$1"
	[ "$(grep -c '^ok ' "$1")" -ge "$3" ] || st_ko "$2: not every check ran (see $1)"
}
(cd "$KIT" && "$ST/shell.exp" 01 "$EX/shell.transcript") >"$EX/shell.checks" 2>&1
checks_of "$EX/shell.checks" "make shell" 9
# Fed by a pipe: every line reaches the guest (none sent before its prompt
# is lost), then poweroff; no terminal query in what it prints.
printf 'echo piped $((6 * 7))\necho again $((6 * 8))\n' | make -s -C "$KIT" shell LAB=1 >"$EX/shell-piped.out" 2>&1
st_check "make shell from a pipe: exits 0, having powered off" [ $? = 0 ]
st_check "make shell from a pipe: both lines ran" \
	bash -c "grep -qx 'piped 42' '$EX/shell-piped.out' && grep -qx 'again 48' '$EX/shell-piped.out'"
st_xfail "make shell from a pipe: a terminal query or CR in its output" grep -q $'\e\\[6n\|\r' "$EX/shell-piped.out"
echo "  make shell session: $((SECONDS - t0)) s"

stage "explore: make gdb in gdb's batch mode, make console (a debug build)"
t0=$SECONDS
# HANDOUT's session: a breakpoint on lab 1's dl_bw_capacity(), hit when a
# task asks for SCHED_DEADLINE (typed on the guest's console, make console),
# then the backtrace and the root domain's span through the kernel's gdb
# helpers ($lx_per_cpu, lx-dmesg).
rm -f "$BUILD/gdb/console.log"
# (run.sh's build of it, started with the hostile part; make gdb builds
# what is left.)
[ -z "${DEBUG_BUILD:-}" ] || wait "$DEBUG_BUILD" || echo "  the debug build started with make test failed ($SELF/debug-build.log)"
timeout 3600 "$KIT/grader/explore.sh" gdb 1 -batch -ex 'break dl_bw_capacity' -ex continue \
	-ex bt -ex 'p $lx_per_cpu("runqueues", i).rd.span' -ex lx-dmesg >"$EX/gdb.log" 2>&1 &
gdb_pid=$!
(cd "$KIT" && "$ST/console.exp" "$BUILD/gdb/console.log" "$EX/console.transcript" \
	"chrt -d -T 50000000 -P 100000000 0 true") >"$EX/console.checks" 2>&1
wait $gdb_pid
checks_of "$EX/console.checks" "make console" 2
st_check "make gdb: the breakpoint on dl_bw_capacity is hit" \
	grep -q 'hit Breakpoint 1[.0-9]*, dl_bw_capacity' "$EX/gdb.log"
st_check "make gdb: the backtrace has it, under sched_setattr" \
	grep -q '^#[0-9].* sched_setattr ' "$EX/gdb.log"
st_check "make gdb: the kernel's gdb helpers: the root domain's span" \
	grep -q '^\$1 = {{bits = {15}}}' "$EX/gdb.log"
st_check "make gdb: the kernel's gdb helpers: lx-dmesg" \
	grep -q 'Booting Linux on physical CPU' "$EX/gdb.log"
# No process has make gdb's socket on its command line (read from /proc: a
# fresh machine may have no procps; the bracket keeps grep's own out).
qemu_gone() { ! grep -qsa "unix:$BUILD/gdb/gdb[.]sock,server" /proc/[0-9]*/cmdline; }
st_check "make gdb: QEMU ends with gdb" qemu_gone
echo "  make gdb and make console: $((SECONDS - t0)) s (a debug build included; log: $EX/gdb.log)"

stage "explore: TEST= runs one test; the exit statuses"
t0=$SECONDS
one=test_big_task_wakes_on_big_cpu
mkdir -p "$SELF/class/reference"
[ -e "$SELF/class/starter.patch" ] || : >"$SELF/class/starter.patch"
ls "$SELF/class/reference"/*.patch >/dev/null 2>&1 || cp "$KIT"/reference-patches/*.patch "$SELF/class/reference/"

# grade NAME WANT MAKE_ARGS...: make grade, OUT=$EX/NAME; its status file
# must say WANT and make's last words "Error WANT" (none for 0).  WANT
# "score": 0 if every test scored passed, else 1 (the student's tree).
grade() {
	local name=$1 want=$2 mk=0
	shift 2
	make -C "$KIT" grade OUT="$EX/$name" "$@" >"$EX/$name.log" 2>&1 || mk=$?
	[ "$want" != score ] ||
		want=$(jq 'if .score == .max_score then 0 else 1 end' "$EX/$name/results.json" 2>/dev/null)
	st_check "exit status: $name: status file $want ($(cat "$EX/$name/status" 2>/dev/null))" \
		[ "$(cat "$EX/$name/status" 2>/dev/null)" = "$want" ]
	if [ "$want" = 0 ]; then
		st_check "exit status: $name: make exits 0 ($mk)" [ "$mk" = 0 ]
	else
		st_check "exit status: $name: make exits 2 ($mk), saying 'Error $want'" \
			bash -c "[ $mk = 2 ] && grep -q '^make.*: \*\*\* \[.*grade\] Error $want\$' '$EX/$name.log'"
	fi
}
# one_test NAME: exactly the test $one ran in that grade, and only it is scored
# (a submission's similarity entry has no status: it is not a test).
one_test() {
	local out=$EX/$1
	st_check "TEST=: $1: one test ran in the guest" \
		[ "$(cat "$out"/boot*.results.log | grep -c ' TIME ')" = 1 ]
	st_check "TEST=: $1: results.json scores that test alone" \
		[ "$(jq -c '[.max_score, [.tests[] | select(has("status")).name], .extra_data.subset]' "$out/results.json")" = \
		"[1,[\"lab02/$one\"],\"TEST=$one\"]" ]
	st_check "TEST=: $1: the report says so" grep -q "^only TEST=$one ran" "$EX/$1.log"
}

grade student score LAB=2 TEST=$one
one_test student
# HANDOUT.md shows this on the starter.
if git -C "$KSRC" diff --quiet starter -- 2>/dev/null; then
	st_sample one-test "$EX/student.log" "s|$EX/student/|build/results/|g"
else
	echo "  HANDOUT.md's sample one-test: not checked, the student's tree is not the starter"
fi
grade reference 0 SUBMISSION="$SELF/class/reference" LAB=2 TEST=$one
one_test reference
grade starter 1 SUBMISSION="$SELF/class/starter.patch" LAB=2 TEST=$one
grade no-such-test 2 LAB=2 TEST=test_nothing_is_called_this
st_check "exit status: a grader error leaves no results.json" [ ! -e "$EX/no-such-test/results.json" ]

# What a student sees on GitHub, from those results.
GITHUB_STEP_SUMMARY=$EX/summary-starter.md "$KIT/grader/github-summary.sh" "$EX/starter" \
	>"$EX/annotations-starter.txt"
st_check "GitHub: the summary has the score, one test only" \
	grep -q "^## schedlab: 0/1 (TEST=$one only)" "$EX/summary-starter.md"
st_check "GitHub: the summary lists the failing test" grep -q "^| lab02/$one | " "$EX/summary-starter.md"
st_check "GitHub: one annotation, for the failing test" \
	[ "$(grep '^::error ' "$EX/annotations-starter.txt" | cut -d: -f3-4)" = "error title=lab02/$one:" ]
GITHUB_STEP_SUMMARY=$EX/summary-error.md "$KIT/grader/github-summary.sh" "$EX/no-such-test" \
	>"$EX/annotations-error.txt"
st_check "GitHub: a grader error is said as such" \
	grep -q '^::error title=grader error::' "$EX/annotations-error.txt"
echo "  TEST= and exit statuses: $((SECONDS - t0)) s"
