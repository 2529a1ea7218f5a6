#!/bin/bash
# The grading driver: build the kernel, boot it, parse, report.
#
#   grade.sh --src TREE --obj DIR --out DIR [--labs "01 02"] [--title T]
#            [--style CHECKPATCH_OUTPUT] [--test NAME] [--durations N]
#            [--slot SLOTDIR] [--similarity SUBMISSION_DIFF] [--isolation FILE]
#            [--changes FILE] [--artifacts kept|none] [--build no]
#	--slot (instructor grading): the build and the boots run in that
#	grading slot's sandbox, within limits (sandbox.sh)
#   grade.sh --out DIR [--labs ...] --verdict V --detail TEXT [--log FILE]
#	every lab scores 0 for a reason found before boot (no-apply,
#	no-build, rejected); FILE's lines are shown.
#
# One boot grades every lab asked for that shares a topology (lab.conf),
# each lab in a section of its own.  A kernel splat is the verdict of the
# lab in whose section it happened; a lab that ran after a splat, or never
# ran because of a panic, a hang or a lab that left the machine changed
# (initramfs/init.c), is graded again in a boot of its own, so a broken lab
# sinks no other.  --test NAME runs that one test only.
# --similarity (a submission's diff against the starter): each lab's result
# also says how much of it is the code the lab's starter removed from 6.1
# (similarity.c; not scored).  --isolation FILE (grade-submission.sh's): the
# report names the isolation the submission's stages ran in, --changes
# FILE (grade-submission.sh's) shows the submission's change map.
# --build no: the kernel in --obj is built already (make test's mutants,
# which build it beside another's boot); no build step.
# --artifacts none (Gradescope's run_autograder): only results.json leaves
# this machine, and it says how the student makes the rest (report.c).
#
# Writes DIR/bootN.{console,results}.log (each boot's kernel console and the
# tests' channel), DIR/labNN.result, DIR/results.json, DIR/junit.xml and
# DIR/report.html (one page: the table, the timelines inline).
# Exit status: 0 every test passed, 1 a test failed or a lab did not run
# cleanly, 2 the grader itself failed (nothing is scored then): a wrong
# argument, or any way out of this script but its end and grader_error.
# With --test, the report says that one test ran and scores it alone.
#
# Environment: BOOT_TIMEOUT=s overrides every lab's TIMEOUT (the self-tests'
# hang case); INITRAMFS is the archive of the init and the test binaries
# (default $BUILD/initramfs.cpio), HIDDEN_DIR the instructor's hidden test
# binaries in it (both set by the Makefile with HIDDEN_TESTS=).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$KIT/grader/sandbox.sh"
# lib.sh's die: the grader's own failure.
# shellcheck disable=SC2034
DIE_STATUS=2
# Only the report's own verdict may exit 0 or 1.
trap 'st=$?; [ -n "${SCORED:-}" ] || [ $st = 0 ] || exit 2' EXIT

SRC='' OBJDIR='' SLOTDIR='' STYLE='' OUT='' LABS='' TITLE="schedlab results" VERDICT='' DETAIL=''
LOG='' TEST='' SEED='' DURATIONS='' SIMILARITY='' ISOLATION='' CHANGES='' ARTIFACTS='' BUILD_STEP=yes
while [ $# -gt 0 ]; do
	case $1 in
	--src) SRC=$2 ;;
	--obj) OBJDIR=$2 ;;
	--slot) SLOTDIR=$2 ;;
	--style) STYLE=$2 ;;
	--out) OUT=$2 ;;
	--labs) LABS=$2 ;;
	--title) TITLE=$2 ;;
	--verdict) VERDICT=$2 ;;
	--detail) DETAIL=$2 ;;
	--log) LOG=$2 ;;
	--test) TEST=$2 ;;
	--seed) SEED=$2 ;;
	--durations) DURATIONS=$2 ;;
	--similarity) SIMILARITY=$2 ;;
	--isolation) ISOLATION=$2 ;;
	--changes) CHANGES=$2 ;;
	--artifacts) ARTIFACTS=$2 ;;
	--build) BUILD_STEP=$2 ;;
	*) die "grade.sh: unknown argument $1" ;;
	esac
	shift 2
done
[ -n "$OUT" ] || die "grade.sh: --out is required"
[ -n "$LABS" ] || LABS=$(all_labs)
[[ $TEST =~ ^[A-Za-z0-9_]*$ ]] || die "grade.sh: '$TEST' is not a test name"
[[ $SEED =~ ^[0-9]{0,9}$ ]] || die "grade.sh: SEED='$SEED' is not a number below 10^9"
TESTS=$BUILD/tests
TOOLS=$BUILD/grader
mkdir -p "$OUT" "$BUILD/dtb"
rm -f "$OUT"/lab*.result "$OUT"/boot*.log "$OUT"/lab*.trace "$OUT"/lab*.svg \
	"$OUT/results.json" "$OUT/junit.xml" "$OUT/report.html"

# A fault of this machine, not of the submission: say so, score nothing.
grader_error() {
	rm -f "$OUT"/lab*.result "$OUT/results.json" "$OUT/junit.xml" "$OUT/report.html"
	printf 'grader error: %s\n' "$*" >&2
	exit 2
}

if [ -z "$VERDICT" ]; then
	[ -n "$SRC" ] && [ -n "$OBJDIR" ] || die "grade.sh: --src and --obj are required"
	# In the sandbox the build sees no .git (nothing of an earlier
	# submission, no config for a later git to obey); 124: its time limit.
	status=0
	build() {
		sandbox_run "$SLOTDIR" --stage build --rw "$OBJDIR" --hide "$SRC/.git" -- \
			"$KIT/grader/build-kernel.sh" "$SRC" "$OBJDIR"
	}
	if [ "$BUILD_STEP" = no ]; then
		[ -f "$OBJDIR/arch/arm64/boot/Image" ] || status=1
	elif [ -n "$SLOTDIR" ]; then
		# A submission's compiler errors quote its lines: cleaned (clean.c)
		# before they reach a terminal or a log.
		{ build 2>&1 >&3 3>&- | "$TOOLS/clean" >&2; } 3>&1 || status=$?
	else
		build || status=$?
	fi
	case $status in
	0) ;;
	1 | 124)
		VERDICT=no-build LOG=$OUT/build-errors.txt DETAIL="see $OBJDIR/build.log"
		[ $status = 1 ] || DETAIL="the build reached its time limit"
		sandbox_run "$SLOTDIR" -- cat "$OBJDIR/build-errors.txt" >"$LOG" 2>/dev/null || true
		;;
	*) grader_error "the kernel could not be configured or built for a reason of this machine (see $OBJDIR/build.log)" ;;
	esac
	IMAGE=$OBJDIR/arch/arm64/boot/Image
fi

# sections LAB: the result sections of a lab: its own tests and, if the
# instructor gave any, its hidden ones ("NNh").
sections() {
	echo "$1"
	[ -z "${HIDDEN_DIR:-}" ] || [ ! -f "$HIDDEN_DIR/hidden$1.tests" ] || echo "${1}h"
}
title_of() {
	case $1 in
	*h) echo "$(lab_conf "${1%h}" TITLE) (hidden tests)" ;;
	*) lab_conf "$1" TITLE ;;
	esac
}
tests_of() {
	case $1 in
	*h) echo "$HIDDEN_DIR/hidden${1%h}.tests" ;;
	*) echo "$TESTS/lab$1.tests" ;;
	esac
}
# only_test LIST: LIST, or with --test, a list of that one test.
only_test() {
	if [ -z "$TEST" ]; then echo "$1"; return; fi
	grep -qx -- "$TEST" "$1" || return 0
	echo "$TEST" >"$OUT/.only.tests"
	echo "$OUT/.only.tests"
}

if [ -n "$TEST" ]; then
	with=
	for lab in $LABS; do
		! grep -qx -- "$TEST" "$TESTS/lab$lab.tests" || with="$with $lab"
	done
	[ -n "$with" ] || die "no lab of '$LABS' has a test named $TEST"
	LABS=$with
fi

if [ -n "$VERDICT" ]; then
	for lab in $LABS; do
		for sec in $(sections "$lab"); do
			tests=$(only_test "$(tests_of "$sec")")
			[ -n "$tests" ] || continue
			"$TOOLS/parse" --lab "$sec" --title "$(title_of "$sec")" --tests "$tests" \
				--verdict "$VERDICT" --detail "$DETAIL" ${LOG:+"$LOG"} >"$OUT/lab$sec.result" ||
				[ $? = 1 ]
		done
	done
fi

# boot_labs "LABS" ALONE: one boot of the labs (one topology); each section's
# result, or the labs to boot again alone in RETRY.
nboot=0
RETRY=()
boot_labs() {
	local labs=$1 alone=$2 topology mark cmark initrd timeout=0 \
		status=0 lab sec tests ps log
	topology=$(lab_conf "${labs%% *}" TOPOLOGY)
	for lab in $labs; do
		timeout=$((timeout + $(lab_conf "$lab" TIMEOUT)))
	done
	timeout=${BOOT_TIMEOUT:-$timeout}
	# The markers are new for every boot and never part of what is built
	# from the submission, so a kernel cannot print them at build time.
	mark=SL$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	cmark=SC$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	nboot=$((nboot + 1))
	log=$OUT/boot$nboot
	initrd=$log.cpio
	"$KIT/initramfs/build.sh" run "$initrd" "${INITRAMFS:-$BUILD/initramfs.cpio}" \
		LABS="$labs" MARK="$mark" CMARK="$cmark" TEST="$TEST" SEED="$SEED"
	qemu_argv "$topology" "$IMAGE" "$initrd" "$log.results.log" ||
		grader_error "no device tree for $topology"
	: >"$log.results.log"
	: >"$log.console.log"
	# In the sandbox, QEMU and expect write these two logs and nothing else.
	[ -z "$SLOTDIR" ] || sandbox_own "$log.console.log" "$log.results.log" "$initrd"
	stage_start "boot $nboot ($topology, labs $labs)"
	sandbox_run "$SLOTDIR" --stage boot --time $((timeout + 60)) --ro "$initrd" --ro "$QEMU_DTB" \
		--ro "${QEMU_ARGV[0]}" \
		--rw "$log.console.log" --rw "$log.results.log" -- \
		"$KIT/grader/boot.exp" "$cmark" "$timeout" "$log.console.log" "$log.results.log" \
		-- "${QEMU_ARGV[@]}" || status=$?
	[ -z "$SLOTDIR" ] || [ "$(id -u)" != 0 ] || chown 0:0 "$log.console.log" "$log.results.log"
	[ "$status" != 124 ] || status=2
	rm -f "$initrd"
	[ "$status" != 4 ] || grader_error "QEMU could not boot the kernel (see $log.console.log); is qemu-system-aarch64 installed? ('make setup')"
	[ -s "$log.console.log" ] || grader_error "boot $nboot printed nothing (status $status): boot.exp or QEMU did not run"
	stage_end "console: $log.console.log"
	for lab in $labs; do
		for sec in $(sections "$lab"); do
			tests=$(only_test "$(tests_of "$sec")")
			[ -n "$tests" ] || continue
			ps=0
			"$TOOLS/parse" --lab "$sec" --title "$(title_of "$sec")" --tests "$tests" \
				--traces "$OUT/lab$sec" --mark "$mark" --cmark "$cmark" --status "$status" \
				--console "$log.console.log" --results "$log.results.log" \
				${alone:+--alone} >"$OUT/lab$sec.result" || ps=$?
			case $ps in
			0 | 1) ;;
			3) rm -f "$OUT/lab$sec.result" "$OUT/lab$sec".*.trace "$OUT/lab$sec".*.svg
			   [[ " ${RETRY[*]} " == *" $lab "* ]] || RETRY+=("$lab") ;;
			*) grader_error "the console of boot $nboot could not be parsed" ;;
			esac
		done
	done
	# The placement timelines the tests traced (labs/lib/trace.h): parse
	# wrote the traces, the report links the SVGs that were drawn.
	for t in "$OUT"/lab*.trace; do
		[ -e "$t" ] && [ ! -e "${t%.trace}.svg" ] || continue
		"$TOOLS/timeline" "$t" "${t%.trace}.svg" || stage "no timeline drawn from $t"
	done
}

if [ -z "$VERDICT" ]; then
	# One boot a topology, labs in order.
	declare -A group=()
	order=()
	for lab in $LABS; do
		t=$(lab_conf "$lab" TOPOLOGY)
		[ -n "${group[$t]:-}" ] || order+=("$t")
		group[$t]="${group[$t]:-} $lab"
	done
	for t in "${order[@]}"; do
		labs=$(echo ${group[$t]})
		alone=
		[ "$labs" != "${labs%% *}" ] || alone=1
		boot_labs "$labs" "$alone"
	done
	for lab in "${RETRY[@]}"; do
		stage "lab $lab: graded again in a boot of its own (an earlier lab in that boot had kernel trouble or left the machine changed, or a test could not decide: see its result)"
		boot_labs "$lab" 1
	done
fi

if [ -n "$SIMILARITY" ]; then
	for lab in $LABS; do
		[ ! -f "$OUT/lab$lab.result" ] ||
			"$TOOLS/similarity" "$(lab_dir "$lab")/starter.patch" "$SIMILARITY" >>"$OUT/lab$lab.result" ||
			grader_error "the similarity of lab $lab to 6.1 could not be measured"
	done
fi

results=()
for lab in $LABS; do
	for sec in $(sections "$lab"); do
		[ ! -f "$OUT/lab$sec.result" ] || results+=("$OUT/lab$sec.result")
	done
done
status=0
NOTE=$(machine_note)
"$TOOLS/report" --title "$TITLE" ${NOTE:+--note "$NOTE"} ${STYLE:+--style "$STYLE"} ${ISOLATION:+--isolation "$ISOLATION"} ${CHANGES:+--changes "$CHANGES"} ${TEST:+--subset "TEST=$TEST"} ${ARTIFACTS:+--artifacts "$ARTIFACTS"} \
	--json "$OUT/results.json" --junit "$OUT/junit.xml" --html "$OUT/report.html" \
	${DURATIONS:+--durations "$DURATIONS"} \
	"${results[@]}" || status=$?
[ $status -le 1 ] || grader_error "the report could not be written"
echo "report: $OUT/report.html (open it in a browser: timelines inline)"
echo "results: $OUT/results.json  junit: $OUT/junit.xml  console logs: $OUT/boot*.console.log"
SCORED=1
exit $status
