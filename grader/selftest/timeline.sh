#!/bin/bash
# The placement timeline (grader/timeline.c): render the recorded-like
# traces in selftest/timeline/ and check each SVG's structure: its lanes
# and capacities, its run rectangles per CPU, its migrations, and where a
# task went.  Each check is also run on a trace that must fail it (a task
# that never leaves the little CPU, or goes back to one, does not "move
# from little to big"), so the checks are shown to be able to fail.
# recorded-starter-busy.trace is a real one: sl_trace_dump() in QEMU, lab 3's
# busy task on the starter kernel (pinned to CPU 0, throttled there, never
# moved).
#
#   grader/selftest/timeline.sh	(BUILD defaults to the kit's build/)
set -uo pipefail
KIT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$KIT/build}
DATA=$KIT/grader/selftest/timeline
OUTDIR=$BUILD/selftest/timeline
TIMELINE=$BUILD/grader/timeline
mkdir -p "$OUTDIR" "$BUILD/grader"
gcc -O2 -Wall -Wextra -Werror -o "$TIMELINE" "$KIT/grader/timeline.c" ||
	{ echo "timeline.c does not build"; exit 1; }

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "  ok    $*"; }
fail() { failed=$((failed + 1)); echo "  FAIL  $*"; }

# check NAME CMD...: CMD must succeed.  xfail NAME CMD...: CMD must fail.
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n"; fi; }
xfail() {
	local n=$1; shift
	if "$@" 2>/dev/null; then fail "$n (expected to fail, passed)"; else pass "$n (fails, as expected)"; fi
}

# The SVG's elements, one a line: "CLASS key=value ..." for its data-*.
elements() {
	sed -n 's/^ *<[a-z]* class="\([a-z-]*\)"\(.*\)$/\1 \2/p' "$1" |
		awk '{ out = $1
		       for (i = 2; i <= NF; i++)
			       if ($i ~ /^data-[a-z-]*="[^"]*"/) {
				       kv = $i; sub(/^data-/, "", kv); gsub(/"/, "", kv)
				       sub(/>.*/, "", kv); out = out " " kv
			       }
		       print out }'
}

# lanes SVG: "cpu:capacity" per lane, in the SVG's order, on one line.
lanes() { elements "$1" | awk '$1 == "lane" { split($2, c, "="); split($3, k, "="); printf "%s%s:%s", s, c[2], k[2]; s = " " } END { print "" }'; }
# runs SVG CPU: how many run rectangles are on CPU.
runs() { elements "$1" | grep -c "^run .*\<cpu=$2\>"; }
# migs SVG FROM TO: how many migrations from FROM to TO.
migs() { elements "$1" | grep -c "^mig .*\<from=$2 to=$3\>"; }

# moves_little_to_big SVG PID: the task migrated from a CPU of the smallest
# capacity to one of the biggest, and after the last such migration it ran
# only on the biggest.  Where it ran before does not count: a test child
# runs wherever fork() put it until it pins itself to its start CPU.
moves_little_to_big() {
	elements "$1" | awk -v pid="$2" '
		function val(k,   i, kv) {
			for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] }
			return ""
		}
		$1 == "lane" { cap[val("cpu")] = val("capacity") + 0
			       if (min == "" || cap[val("cpu")] < min) min = cap[val("cpu")]
			       if (cap[val("cpu")] > max) max = cap[val("cpu")] }
		$1 == "run" && val("pid") == pid { n++; rt[n] = val("start-us") + 0; rc[n] = val("cpu") }
		$1 == "mig" && val("pid") == pid && cap[val("from")] == min && cap[val("to")] == max {
			t = val("t-us") + 0
			if (moved == "" || t > moved) moved = t
		}
		END {
			if (!n) { print "no run of pid " pid > "/dev/stderr"; exit 1 }
			if (moved == "") { print "pid " pid " never migrated from a little CPU to a big one" > "/dev/stderr"; exit 1 }
			for (i = 1; i <= n; i++) {
				if (rt[i] < moved)
					continue
				if (cap[rc[i]] != max) {
					print "after its move at " moved " us, a run on CPU " rc[i] " (" cap[rc[i]] ")" > "/dev/stderr"
					exit 1
				}
				after++
			}
			if (!after) { print "no run after the move at " moved " us" > "/dev/stderr"; exit 1 }
		}'
}

# timeline.sh --moves SVG: the end-to-end check of a real lab 3 run: in that
# SVG, the (first) task moves from a little CPU's lane to a big one's.
if [ "${1:-}" = --moves ]; then
	pid=$(elements "$2" | awk '$1 == "run" { for (i = 2; i <= NF; i++) if ($i ~ /^pid=/) { sub(/pid=/, "", $i); print $i; exit } }')
	[ -n "$pid" ] || { echo "no task in $2" >&2; exit 1; }
	moves_little_to_big "$2" "$pid"
	exit
fi

expect_eq() {	# NAME GOT WANT
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', wanted '$3'"; fi
}


# all_runs_on_big SVG PID: every run of PID is on a biggest-capacity CPU.
all_runs_on_big() {
	local big
	big=$(elements "$1" | awk '$1 == "lane" && $4 == "big=1" { split($2, c, "="); printf "%s ", c[2] }')
	elements "$1" | awk -v pid="$2" -v big=" $big" '
		$1 == "run" && $2 == "pid=" pid { n++; split($3, c, "="); if (index(big, " " c[2] " ") == 0) bad++ }
		END { exit !(n > 0 && !bad) }'
}

render() {	# NAME: DATA/NAME.trace -> OUTDIR/NAME.svg
	"$TIMELINE" "$DATA/$1.trace" "$OUTDIR/$1.svg"
}

echo "timeline: lab3-migration (throttled on a little CPU, then on a big one)"
svg=$OUTDIR/lab3-migration.svg
check "renders" render lab3-migration
check "is one <svg> document" grep -q '</svg>' "$svg"
expect_eq "lanes and capacities" "$(lanes "$svg")" "0:512 1:512 2:1024 3:1024"
expect_eq "big lanes are marked" "$(grep -c 'class="lane" [^>]*data-big="1"' "$svg")" 2
expect_eq "lane label" "$(grep -c '>CPU 2 (capacity 1024)<' "$svg")" 1
expect_eq "runs on CPU 0" "$(runs "$svg" 0)" 2
expect_eq "runs on CPU 1" "$(runs "$svg" 1)" 0
expect_eq "runs on CPU 2" "$(runs "$svg" 2)" 4
expect_eq "migration 0 -> 2" "$(migs "$svg" 0 2)" 1
expect_eq "throttle points" "$(elements "$svg" | grep -c '^thr ')" 5
check "moves from little to big" moves_little_to_big "$svg" 142
check "title names the test" grep -q 'class="title"[^>]*>[^<]*test_busy_task_moves_at_first_throttle' "$svg"
check "axis in ms with ticks" grep -q 'class="tick" data-ms="400"' "$svg"
check "legend has the pid" grep -q 'class="legend-pid" data-pid="142"' "$svg"

echo "timeline: lab3-no-migration (stays on the little CPU: the starter)"
svg=$OUTDIR/lab3-no-migration.svg
check "renders" render lab3-no-migration
expect_eq "runs on CPU 0" "$(runs "$svg" 0)" 5
expect_eq "no migration" "$(elements "$svg" | grep -c '^mig ')" 0
xfail "moves from little to big" moves_little_to_big "$svg" 139

echo "timeline: lab3-forked-on-big (fork() put it on a big CPU before it pinned itself to a little one)"
svg=$OUTDIR/lab3-forked-on-big.svg
check "renders" render lab3-forked-on-big
expect_eq "migration 3 -> 1 (pinning)" "$(migs "$svg" 3 1)" 1
check "moves from little to big" moves_little_to_big "$svg" 77

echo "timeline: lab3-forked-on-big-stays (the same start, then never moved: the starter)"
svg=$OUTDIR/lab3-forked-on-big-stays.svg
check "renders" render lab3-forked-on-big-stays
xfail "moves from little to big" moves_little_to_big "$svg" 78

echo "timeline: lab3-moves-back (moved to a big CPU, then back to a little one)"
svg=$OUTDIR/lab3-moves-back.svg
check "renders" render lab3-moves-back
xfail "moves from little to big" moves_little_to_big "$svg" 79

echo "timeline: lab2-wakeup-placement (three tiers, two tasks)"
svg=$OUTDIR/lab2-wakeup-placement.svg
check "renders" render lab2-wakeup-placement
expect_eq "lanes and capacities" "$(lanes "$svg")" "0:256 1:512 2:1024 3:1024"
expect_eq "runs on CPU 0" "$(runs "$svg" 0)" 7
expect_eq "runs on CPU 2" "$(runs "$svg" 2)" 4
expect_eq "runs on CPU 3" "$(runs "$svg" 3)" 2
expect_eq "wakeups" "$(elements "$svg" | grep -c '^wake ')" 12
check "the big task ran on big CPUs only" all_runs_on_big "$svg" 211
xfail "the small task ran on big CPUs only" all_runs_on_big "$svg" 212
expect_eq "a colour per task" "$(grep -o 'class="run" data-pid="21[12]"[^>]*fill="#[0-9a-f]*"' "$svg" |
	sed 's/.*pid="\([0-9]*\)".*fill="\(#[0-9a-f]*\)"/\1 \2/' | sort -u | wc -l)" 2

echo "timeline: recorded-starter-busy (recorded in QEMU: lab 3's busy task on the starter)"
svg=$OUTDIR/recorded-starter-busy.svg
check "renders" render recorded-starter-busy
expect_eq "lanes and capacities" "$(lanes "$svg")" "0:512 1:512 2:1024 3:1024"
expect_eq "runs on CPU 0" "$(runs "$svg" 0)" 5
expect_eq "pinned: migration 3 -> 0" "$(migs "$svg" 3 0)" 1
expect_eq "throttle points" "$(elements "$svg" | grep -c '^thr ')" 5
xfail "moves from little to big" moves_little_to_big "$svg" 131

echo "timeline: untrusted input"
bad=$OUTDIR/hostile.trace
printf '%s\n' 'TRACE <script>alert(1)</script> cpu 0 512' \
	'TRACE <script>alert(1)</script> run 1 0 0 100' \
	'TRACE <script>alert(1)</script> run 1 9999999 0 100' \
	'TRACE <script>alert(1)</script> mig 1 -5 0 1' \
	'TRACE other-test run 2 0 0 100' \
	"TRACE <script>alert(1)</script> run 3 0 0 $(printf '9%.0s' {1..600})" >"$bad"
check "renders hostile input" "$TIMELINE" "$bad" "$OUTDIR/hostile.svg"
expect_eq "no markup from the trace" "$(grep -c '<script' "$OUTDIR/hostile.svg")" 0
expect_eq "only the first test's lines" "$(elements "$OUTDIR/hostile.svg" | grep -c '^run pid=2 ')" 0
printf 'no trace here\n' >"$OUTDIR/empty.trace"
xfail "an input without TRACE lines" "$TIMELINE" "$OUTDIR/empty.trace" "$OUTDIR/empty.svg"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
