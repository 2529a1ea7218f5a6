#!/bin/bash
# The grading driver: build the kernel, boot it once for each lab, parse
# each console, report.
#
#   grade.sh --src TREE --obj DIR --out DIR [--labs "01 02"] [--title T]
#            [--style CHECKPATCH_OUTPUT] [--slot SLOTDIR]
#	--slot (instructor grading): the build and the boots run in that
#	grading slot's sandbox, within limits (sandbox.sh)
#   grade.sh --out DIR [--labs ...] --verdict V --detail TEXT [--log FILE]
#	every lab scores 0 for a reason found before boot (no-apply,
#	no-build, rejected); FILE's lines are shown.
#
# One boot per lab: a panic or a WARN sinks the lab it happened in and no
# other; each boot has its own marker and its own time limit (lab.conf).
# Writes DIR/labNN.{console.log,result}, DIR/results.json, DIR/junit.xml.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$KIT/grader/sandbox.sh"

SRC='' OBJDIR='' SLOTDIR='' STYLE='' OUT='' LABS='' TITLE="schedlab results" VERDICT='' DETAIL='' LOG=''
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
	*) die "grade.sh: unknown argument $1" ;;
	esac
	shift 2
done
[ -n "$OUT" ] || die "grade.sh: --out is required"
[ -n "$LABS" ] || LABS=$(all_labs)
TESTS=$BUILD/tests
TOOLS=$BUILD/grader
mkdir -p "$OUT" "$BUILD/dtb"
rm -f "$OUT"/lab*.result "$OUT"/lab*.console.log "$OUT"/lab*.trace "$OUT"/lab*.svg

if [ -z "$VERDICT" ]; then
	[ -n "$SRC" ] && [ -n "$OBJDIR" ] || die "grade.sh: --src and --obj are required"
	# The build sees no .git (nothing of an earlier submission, no config
	# for a later git to obey).  Status 3: the kernel does not build.
	status=0
	sandbox_run "$SLOTDIR" --stage build --rw "$OBJDIR" --hide "$SRC/.git" -- \
		"$KIT/grader/build-kernel.sh" "$SRC" "$OBJDIR" || status=$?
	case $status in
	0) ;;
	3 | 124)
		VERDICT=no-build LOG=$OUT/build-errors.txt DETAIL="see $OBJDIR/build.log"
		[ $status = 3 ] || DETAIL="the build reached its time limit"
		sandbox_run "$SLOTDIR" -- cat "$OBJDIR/build-errors.txt" >"$LOG" 2>/dev/null || true
		;;
	*) die "the grader could not build the kernel (status $status)" ;;
	esac
	IMAGE=$OBJDIR/arch/arm64/boot/Image
fi

# sections LAB: the result sections of a lab's boot: its own tests and, if
# the instructor gave any, its hidden ones ("NNh").
sections() {
	echo "$1"
	[ -z "${HIDDEN_DIR:-}" ] || [ ! -f "$HIDDEN_DIR/hidden$1.tests" ] || echo "${1}h"
}
title_of() { case $1 in *h) echo "$TITLE_LAB (hidden tests)" ;; *) echo "$TITLE_LAB" ;; esac; }
tests_of() { case $1 in *h) echo "$HIDDEN_DIR/hidden${1%h}.tests" ;; *) echo "$TESTS/lab$1.tests" ;; esac; }

results=()
for lab in $LABS; do
	dir=$(lab_dir "$lab")
	TITLE_LAB='' TOPOLOGY=big-little TIMEOUT=120
	# shellcheck source=/dev/null
	. "$dir/lab.conf"
	TIMEOUT=${BOOT_TIMEOUT:-$TIMEOUT}
	if [ -n "$VERDICT" ]; then
		for sec in $(sections "$lab"); do
			results+=("$OUT/lab$sec.result")
			"$TOOLS/parse" --lab "$sec" --title "$(title_of "$sec")" --tests "$(tests_of "$sec")" \
				--verdict "$VERDICT" --detail "$DETAIL" ${LOG:+"$LOG"} >"$OUT/lab$sec.result"
		done
		continue
	fi
	dtb=$BUILD/dtb/$TOPOLOGY.dtb
	caps=$KIT/grader/topologies/$TOPOLOGY.caps
	if [ ! -f "$dtb" ] || [ "$caps" -nt "$dtb" ]; then
		"$KIT/grader/make-dtb.sh" "$caps" "$dtb"
	fi
	ncpus=$(grep -v '^#' "$caps" | wc -w)
	# The marker is new for every boot and never part of what is built
	# from the submission, so a kernel cannot print it at build time.
	mark=SL$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	initrd=$OUT/lab$lab.cpio
	"$KIT/initramfs/build.sh" run "$initrd" "${INITRAMFS:-$BUILD/initramfs.cpio}" "$lab" "$mark"
	stage "booting lab $lab ($TITLE_LAB) on $TOPOLOGY"
	status=0
	t0=$(date +%s%N)
	# In the sandbox, QEMU writes its console log and nothing else.
	console=$OUT/lab$lab.console.log
	: >"$console"
	[ -z "$SLOTDIR" ] || sandbox_own "$console" "$initrd"
	sandbox_run "$SLOTDIR" --stage boot --time $((TIMEOUT + 60)) \
		--ro "$initrd" --ro "$dtb" --rw "$console" -- \
		"$KIT/grader/boot.exp" "$IMAGE" "$initrd" "$dtb" "$ncpus" "$mark" \
		"$TIMEOUT" "$console" || status=$?
	[ -z "$SLOTDIR" ] || [ "$(id -u)" != 0 ] || chown 0:0 "$console"
	# A kernel that dies says something first: silence is the grader's.
	[ -s "$console" ] || die "the boot of lab $lab printed nothing (status $status): QEMU did not run"
	t1=$(date +%s%N)
	stage "lab $lab: boot to poweroff $(( (t1 - t0) / 1000000 )) ms"
	rm -f "$initrd"
	for sec in $(sections "$lab"); do
		results+=("$OUT/lab$sec.result")
		if console_flooded "$console"; then
			"$TOOLS/parse" --lab "$sec" --title "$(title_of "$sec")" --tests "$(tests_of "$sec")" \
				--verdict flood --detail "the console printed $CONSOLE_MAX bytes; the boot was stopped there" \
				"$console" >"$OUT/lab$sec.result"
			continue
		fi
		"$TOOLS/parse" --lab "$sec" --title "$(title_of "$sec")" --tests "$(tests_of "$sec")" \
			--traces "$OUT/lab$sec" --mark "$mark" --status "$status" \
			"$console" >"$OUT/lab$sec.result"
	done
	# The placement timelines the tests traced (labs/lib/trace.h).
	for t in "$OUT/lab$lab".*.trace; do
		[ -e "$t" ] || continue
		"$TOOLS/timeline" "$t" "${t%.trace}.svg" 2>/dev/null || rm -f "${t%.trace}.svg"
	done
done

status=0
"$TOOLS/report" --title "$TITLE" ${STYLE:+--style "$STYLE"} --json "$OUT/results.json" \
	--junit "$OUT/junit.xml" "${results[@]}" || status=$?
[ $status -le 1 ] || die "the report could not be written"
echo "results: $OUT/results.json  junit: $OUT/junit.xml  console logs: $OUT/lab*.console.log"
exit 0
