# shellcheck shell=bash
# Part of make test (run.sh): the placement timeline renderer
# (grader/timeline.c) on the recorded-like traces in timeline/, each SVG
# parsed as XML and asked (svg.sh) for its lanes and capacities, its run
# rectangles per CPU, its migrations, and where a task went.  Each check is
# also run on a trace that must fail it (a task that never leaves the
# little CPU, or goes back to one, does not "move from little to big"), so
# the checks are shown to be able to fail.  recorded-starter-busy.trace is
# a real one: sl_trace_dump() in QEMU, lab 3's busy task on the starter
# kernel (pinned to CPU 0, throttled there, never moved).  Then hostile
# traces, with the renderer built with the undefined-behaviour sanitizer.

stage "the timeline renderer (recorded traces)"
TL_DATA=$ST/timeline
TL_OUT=$SELF/timeline
TIMELINE=$BUILD/grader/timeline
mkdir -p "$TL_OUT"

# tl_render NAME: TL_DATA/NAME.trace -> TL_OUT/NAME.svg, a well-formed one.
tl_render() {
	"$TIMELINE" "$TL_DATA/$1.trace" "$TL_OUT/$1.svg" && xmllint --noout "$TL_OUT/$1.svg"
}
# tl_eq NAME GOT WANT
tl_eq() { if [ "$2" = "$3" ]; then st_ok "$1"; else st_ko "$1: got '$2', wanted '$3'"; fi; }

t=lab3-migration svg=$TL_OUT/lab3-migration.svg	# throttled on a little CPU, then on a big one
st_check "$t: renders" tl_render $t
tl_eq "$t: lanes and capacities" "$(svg_lanes "$svg")" "0:512 1:512 2:1024 3:1024"
tl_eq "$t: big lanes are marked" "$(svg_count "$svg" lane '[@data-big="1"]')" 2
tl_eq "$t: lane label" "$(svg_count "$svg" lane-label '[normalize-space(.) = "CPU 2 (capacity 1024)"]')" 1
tl_eq "$t: runs on CPU 0" "$(svg_count "$svg" run '[@data-cpu="0"]')" 2
tl_eq "$t: runs on CPU 1" "$(svg_count "$svg" run '[@data-cpu="1"]')" 0
tl_eq "$t: runs on CPU 2" "$(svg_count "$svg" run '[@data-cpu="2"]')" 4
tl_eq "$t: migration 0 -> 2" "$(svg_count "$svg" mig '[@data-from="0"][@data-to="2"]')" 1
tl_eq "$t: throttle points" "$(svg_count "$svg" thr)" 5
st_check "$t: moves from little to big" svg_moves_little_to_big "$svg" 142
tl_eq "$t: title names the test" \
	"$(svg_q "$svg" 'contains(//*[@class="title"], "test_busy_task_moves_at_first_throttle")')" true
tl_eq "$t: axis in ms with ticks" "$(svg_count "$svg" tick '[@data-ms="400"]')" 1
tl_eq "$t: legend has the pid" "$(svg_count "$svg" legend-pid '[@data-pid="142"]')" 1

t=lab3-no-migration svg=$TL_OUT/$t.svg	# stays on the little CPU: the starter
st_check "$t: renders" tl_render $t
tl_eq "$t: runs on CPU 0" "$(svg_count "$svg" run '[@data-cpu="0"]')" 5
tl_eq "$t: no migration" "$(svg_count "$svg" mig)" 0
st_xfail "$t: moves from little to big" svg_moves_little_to_big "$svg" 139

t=lab3-forked-on-big svg=$TL_OUT/$t.svg	# fork() put it on a big CPU, then it pinned itself to a little one
st_check "$t: renders" tl_render $t
tl_eq "$t: migration 3 -> 1 (pinning)" "$(svg_count "$svg" mig '[@data-from="3"][@data-to="1"]')" 1
st_check "$t: moves from little to big" svg_moves_little_to_big "$svg" 77

t=lab3-forked-on-big-stays svg=$TL_OUT/$t.svg	# the same start, then never moved: the starter
st_check "$t: renders" tl_render $t
st_xfail "$t: moves from little to big" svg_moves_little_to_big "$svg" 78

t=lab3-moves-back svg=$TL_OUT/$t.svg	# moved to a big CPU, then back to a little one
st_check "$t: renders" tl_render $t
st_xfail "$t: moves from little to big" svg_moves_little_to_big "$svg" 79

t=lab2-wakeup-placement svg=$TL_OUT/$t.svg	# three tiers, two tasks
st_check "$t: renders" tl_render $t
tl_eq "$t: lanes and capacities" "$(svg_lanes "$svg")" "0:256 1:512 2:1024 3:1024"
tl_eq "$t: runs on CPU 0" "$(svg_count "$svg" run '[@data-cpu="0"]')" 7
tl_eq "$t: runs on CPU 2" "$(svg_count "$svg" run '[@data-cpu="2"]')" 4
tl_eq "$t: runs on CPU 3" "$(svg_count "$svg" run '[@data-cpu="3"]')" 2
tl_eq "$t: wakeups" "$(svg_count "$svg" wake)" 12
st_check "$t: the big task ran on big CPUs only" svg_all_runs_on_big "$svg" 211
st_xfail "$t: the small task ran on big CPUs only" svg_all_runs_on_big "$svg" 212
fill211=$(svg_q "$svg" 'string((//*[@class="run"][@data-pid="211"])[1]/@fill)')
fill212=$(svg_q "$svg" 'string((//*[@class="run"][@data-pid="212"])[1]/@fill)')
tl_eq "$t: a colour per task" "$(svg_count "$svg" run "[@data-pid=\"211\"][@fill != \"$fill211\"]") $(svg_count "$svg" run "[@data-pid=\"212\"][@fill != \"$fill212\"]") $([ "$fill211" != "$fill212" ] && echo distinct)" "0 0 distinct"

t=recorded-starter-busy svg=$TL_OUT/$t.svg	# recorded in QEMU: lab 3's busy task on the starter
st_check "$t: renders" tl_render $t
tl_eq "$t: lanes and capacities" "$(svg_lanes "$svg")" "0:512 1:512 2:1024 3:1024"
tl_eq "$t: runs on CPU 0" "$(svg_count "$svg" run '[@data-cpu="0"]')" 5
tl_eq "$t: pinned: migration 3 -> 0" "$(svg_count "$svg" mig '[@data-from="3"][@data-to="0"]')" 1
tl_eq "$t: throttle points" "$(svg_count "$svg" thr)" 5
st_xfail "$t: moves from little to big" svg_moves_little_to_big "$svg" 131

# Untrusted input: markup in the test name, another test's lines, numbers
# out of range (the sanitizer turns any signed overflow into a failure).
t=hostile svg=$TL_OUT/hostile.svg
ubsan=$TL_OUT/timeline-ubsan
st_check "timeline.c builds with -fsanitize=undefined" \
	gcc -O1 -g -fsanitize=undefined -fno-sanitize-recover=all -Wall -Wextra -Werror \
	-o "$ubsan" "$KIT/grader/timeline.c" "$KIT/grader/results.c"
big=9223372036854775807
printf '%s\n' 'TRACE <script>alert(1)</script> cpu 0 512' \
	'TRACE <script>alert(1)</script> run 1 0 0 100' \
	'TRACE <script>alert(1)</script> run 1 9999999 0 100' \
	'TRACE <script>alert(1)</script> mig 1 -5 0 1' \
	'TRACE other-test run 2 0 0 100' \
	"TRACE <script>alert(1)</script> run 3 0 0 $(printf '9%.0s' {1..600})" \
	"TRACE <script>alert(1)</script> run 4 0 0 $big" \
	"TRACE <script>alert(1)</script> run 5 1 -$big $big" \
	"TRACE <script>alert(1)</script> cpu 1 $big" \
	"TRACE <script>alert(1)</script> lost $big" \
	"TRACE <script>alert(1)</script> lost 999999999999999" \
	"TRACE <script>alert(1)</script> lost 999999999999999" \
	"TRACE <script>alert(1)</script> thr 6 999999999999999 0" \
	$'TRACE <script>alert(1)</script> wake 7 10 0\e]0;x\a' >"$TL_OUT/$t.trace"
st_check "$t: renders, no undefined behaviour" "$ubsan" "$TL_OUT/$t.trace" "$svg"
st_check "$t: a well-formed SVG" xmllint --noout "$svg"
tl_eq "$t: no markup from the trace" "$(svg_q "$svg" 'count(//*[local-name() = "script"])')" 0
tl_eq "$t: the name shown as text" "$(svg_q "$svg" 'contains(//*[@class="title"], "<script>")')" true
tl_eq "$t: only the first test's lines" "$(svg_count "$svg" run '[@data-pid="2"]')" 0
tl_eq "$t: numbers out of range are skipped" "$(svg_count "$svg" run '[@data-pid="4" or @data-pid="5"]')" 0
printf 'no trace here\n' >"$TL_OUT/empty.trace"
st_xfail "an input without TRACE lines" "$TIMELINE" "$TL_OUT/empty.trace" "$TL_OUT/empty.svg"
"$TIMELINE" "$TL_OUT/empty.trace" "$TL_OUT/empty.svg" 2>/dev/null
tl_eq "an input without TRACE lines: exit status 2, no SVG" "$? $([ -e "$TL_OUT/empty.svg" ] && echo svg)" "2 "
