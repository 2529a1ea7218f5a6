# shellcheck shell=bash
# Questions to a placement timeline (grader/timeline.c's SVG), asked of the
# SVG parsed as XML (XPath 1.0, with xmllint) through the classes and data-
# attributes timeline.c documents.  Sourced by the self-tests; run alone,
#
#   grader/selftest/svg.sh --moves SVG
#
# checks a real lab 3 run: the (first) task moves from a little CPU's lane
# to a big one's (svg_moves_little_to_big).

# svg_q SVG XPATH: the value of an XPath expression (a count, a string...).
svg_q() { xmllint --xpath "$2" "$1"; }

# svg_count SVG CLASS [PREDICATES]: how many elements of CLASS match.
svg_count() { svg_q "$1" "count(//*[@class=\"$2\"]${3:-})"; }

# svg_lanes SVG: "cpu:capacity" per lane, in the SVG's order, on one line.
svg_lanes() {
	local i n out=
	n=$(svg_count "$1" lane)
	for ((i = 1; i <= n; i++)); do
		out="$out${out:+ }$(svg_q "$1" "string((//*[@class=\"lane\"])[$i]/@data-cpu)"):$(svg_q "$1" "string((//*[@class=\"lane\"])[$i]/@data-capacity)")"
	done
	echo "$out"
}

# The lanes of the smallest and of the biggest capacity.
SVG_LITTLE='//*[@class="lane"][not(@data-capacity > //*[@class="lane"]/@data-capacity)]'
SVG_BIG='//*[@class="lane"][not(@data-capacity < //*[@class="lane"]/@data-capacity)]'

# svg_moves_little_to_big SVG PID: the task migrated from a CPU of the
# smallest capacity to one of the biggest, and after the last such
# migration it ran only on the biggest.  Where it ran before does not
# count: a test child runs wherever fork() put it until it pins itself.
svg_moves_little_to_big() {
	local svg=$1 pid=$2 moves moved
	moves="//*[@class=\"mig\"][@data-pid=\"$pid\"][@data-from = $SVG_LITTLE/@data-cpu][@data-to = $SVG_BIG/@data-cpu]"
	if [ "$(svg_count "$svg" run "[@data-pid=\"$pid\"]")" = 0 ]; then
		echo "no run of pid $pid" >&2
		return 1
	fi
	moved=$(svg_q "$svg" "string(${moves}[not(@data-t-us < $moves/@data-t-us)]/@data-t-us)")
	if [ -z "$moved" ]; then
		echo "pid $pid never migrated from a little CPU to a big one" >&2
		return 1
	fi
	local after="[@data-pid=\"$pid\"][@data-start-us >= $moved]"
	if [ "$(svg_count "$svg" run "${after}[not(@data-cpu = $SVG_BIG/@data-cpu)]")" != 0 ]; then
		echo "after its move at $moved us, pid $pid ran on a CPU that is not one of the biggest" >&2
		return 1
	fi
	if [ "$(svg_count "$svg" run "$after")" = 0 ]; then
		echo "no run after the move at $moved us" >&2
		return 1
	fi
}

# svg_all_runs_on_big SVG PID: PID ran, and only on lanes marked big.
svg_all_runs_on_big() {
	[ "$(svg_q "$1" "count(//*[@class=\"run\"][@data-pid=\"$2\"]) > 0 and
		count(//*[@class=\"run\"][@data-pid=\"$2\"][not(@data-cpu = //*[@class=\"lane\"][@data-big=\"1\"]/@data-cpu)]) = 0")" = true ]
}

# svg_first_pid SVG: the pid of the first run.
svg_first_pid() { svg_q "$1" 'string((//*[@class="run"])[1]/@data-pid)'; }

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	if [ "${1:-}" != --moves ] || [ -z "${2:-}" ]; then
		echo "usage: svg.sh --moves SVG" >&2
		exit 2
	fi
	pid=$(svg_first_pid "$2")
	[ -n "$pid" ] || { echo "no task in $2" >&2; exit 1; }
	svg_moves_little_to_big "$2" "$pid"
fi
