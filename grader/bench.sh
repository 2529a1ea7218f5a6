#!/bin/bash
# make bench: what grading costs on this machine, each figure beside the
# bare kernel build of the same change.
#
#   bench.sh [RUNS]       RUNS of each figure, the median is shown (default 3)
#   FLAKE=N bench.sh      also grade the reference N times in a row and count
#                         the runs that were not full marks without a splat
#   CLASS=0 bench.sh      without the warm batch grading (grade-all, with one
#                         slot and with two)
#   GRADESCOPE="0.5 1" bench.sh [RUNS]
#                         instead: Gradescope's flow in podman (container.sh):
#                         the image's setup.sh timed once, then RUNS uploads
#                         of the reference and of the empty patch at each CPU
#                         share, with MEMORY (default 768m): score, wall
#                         time, peak memory, undecided tests, full marks
#                         (GS_WHO=reference: the reference's uploads only;
#                         QEMU_EXTRA is passed to the container's grading)
#
# Everything happens in a build folder of its own ($BUILD/bench): a cold
# setup and build first (timed once), then the reference solution committed
# onto that tree.  Each figure is measured after an edit of deadline.c (a
# comment line added at its end: through the compiler cache a file only
# touched would not be compiled again), and set beside the bare
# "make ... Image" of the same edit: a difference and a ratio.  Nothing is
# asserted; the figures go in grader/README.md's cost table.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=bench

RUNS=${1:-3}
B=$BUILD/bench
KB=$B/linux
OB=$B/obj
# Its own compiler cache, empty at first: the cold make grade is a
# student's first.
export CCACHE_DIR=$B/ccache
MK=(make -s -C "$KIT" BUILD="$B" KSRC="$KB" OBJ="$OB" OUT="$B/results")
# LOCALVERSION= as build-kernel.sh sets it: without it the release string
# gains a "+" (the tree is a git tree), so each bare build and each grade
# after it would relink what the release string reaches, about 2 s of
# rebuild that neither the change nor grading causes; and its compiler,
# KERNEL_CC, for the same reason (every object would be compiled again).
BARE=(make -s -C "$KB" O="$OB" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j"$(nproc)" LOCALVERSION=
	CC="$KERNEL_CC" Image)
LOG=$B/bench.log

now() { date +%s%N; }
# ms CMD...: run CMD (its output to the log), print its wall time in ms.
ms() {
	local t0 t1
	t0=$(now)
	"$@" >>"$LOG" 2>&1 || true
	t1=$(now)
	echo $(((t1 - t0) / 1000000))
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

if [ -n "${GRADESCOPE:-}" ]; then
	G=$BUILD/bench-gradescope
	rm -rf "$G"
	mkdir -p "$G"
	base=localhost/schedlab-debian:12
	podman image exists "$base" || "$KIT/grader/container.sh" base "$base" >"$G/base.log" 2>&1
	t0=$(date +%s)
	"$KIT/grader/container.sh" gradescope "$base" >"$G/image.log" 2>&1 ||
		die_log "$G/image.log" "the Gradescope image does not build"
	echo "schedlab bench, Gradescope's flow: the image (setup.sh, a cold build) in $(seconds $(($(date +%s) - t0)))"
	for share in $GRADESCOPE; do
		for who in ${GS_WHO:-reference empty}; do
			walls=() full=0 undecided=0 peak=0
			for ((i = 1; i <= RUNS; i++)); do
				d=$G/$share-$who-$i
				mkdir -p "$d/submission"
				if [ $who = reference ]; then
					cp "$KIT"/reference-patches/*.patch "$d/submission/"
				else
					: >"$d/submission/empty.patch"
				fi
				t0=$(date +%s%N)
				"$KIT/grader/container.sh" autograder "$d" "$share" "${MEMORY:-768m}" \
					${QEMU_EXTRA:+"QEMU_EXTRA=$QEMU_EXTRA"} >"$d.log" 2>&1
				walls+=("$((($(date +%s%N) - t0) / 1000000))")
				read -r score max und < <(jq -r '[.score, ([.tests[].max_score] | add),
					([.tests[] | select(.extra_data.undecided)] | length)] | @tsv' \
					"$d/results/results.json" 2>/dev/null || echo "- - -")
				[ "$score" != "$max" ] || [ "$score" = - ] || full=$((full + 1))
				[ "$und" = - ] || undecided=$((undecided + und))
				p=$(cat "$d/results/peak" 2>/dev/null || echo 0)
				[ "$p" -le "$peak" ] || peak=$p
				echo "  $share CPU, $who, run $i: $score/$max, $und undecided, $((walls[-1] / 1000)) s, peak $((p >> 20)) MiB"
			done
			printf '  %-4s CPU %-9s median %6.1f s   full marks %d of %d   undecided tests %d   peak memory %d MiB\n' \
				"$share" "$who" "$(echo "$(median "${walls[@]}") / 1000" | bc -l)" "$full" "$RUNS" \
				"$undecided" "$((peak >> 20))"
		done
	done
	exit 0
fi
touch_dl() { echo "/* make bench: an edit, $(date +%s%N) */" >>"$KB/kernel/sched/deadline.c"; }
# measure NAME CMD...: RUNS times "edit; bare build", then "edit; CMD";
# prints the medians, their difference and ratio.
measure() {
	local name=$1 bare=() full=() i b f
	shift
	for ((i = 0; i < RUNS; i++)); do
		touch_dl; bare+=("$(ms "${BARE[@]}")")
		touch_dl; full+=("$(ms "$@")")
	done
	b=$(median "${bare[@]}") f=$(median "${full[@]}")
	printf '  %-34s %6.1f s   bare make Image %5.1f s   +%5.1f s   x%.2f   (runs: %s)\n' \
		"$name" "$(echo "$f / 1000" | bc -l)" "$(echo "$b / 1000" | bc -l)" \
		"$(echo "($f - $b) / 1000" | bc -l)" "$(echo "$f / $b" | bc -l)" "${full[*]}"
}

rm -rf "$B"
mkdir -p "$B"
: >"$LOG"
echo "schedlab bench: $(nproc) cores, $RUNS runs a figure (median), labs $(all_labs)"
# The host: the figures differ between hosts' compilers and QEMUs.
echo "  host: $(. /etc/os-release && echo "$PRETTY_NAME"), $(aarch64-linux-gnu-gcc -dumpfullversion 2>/dev/null |
	sed 's/^/GCC /'), $(qemu-system-aarch64 --version | head -n 1 | sed 's/ emulator version//')"

cold=$(ms "${MK[@]}" grade)
printf '  %-34s %6.1f s   (setup, extract, first build, every lab on the starter)\n' \
	"cold: make grade" "$(echo "$cold / 1000" | bc -l)"

stage "starter: make grade after an edit of deadline.c"
measure "starter: make grade" "${MK[@]}" grade

BUILD=$B KSRC=$KB "$KIT/grader/reference.sh" >>"$LOG" 2>&1
"${MK[@]}" build >>"$LOG" 2>&1
stage "reference: make grade, LAB=1, a boot"
measure "reference: make grade" "${MK[@]}" grade
rm -rf "$B/results-all" && cp -r "$B/results" "$B/results-all"
measure "reference: make grade LAB=1" "${MK[@]}" grade LAB=1

# A boot that runs no test: kernel start to poweroff.
topology=$(any_lab_topology)
boots=()
for ((i = 0; i < RUNS; i++)); do
	cm=SCbench$i$RANDOM$RANDOM
	"$KIT/initramfs/build.sh" run "$B/none.cpio" "$B/initramfs.cpio" LABS= MARK=SLbench$i$RANDOM$RANDOM CMARK="$cm"
	qemu_argv "$topology" "$OB/arch/arm64/boot/Image" "$B/none.cpio" "$B/none.results"
	boots+=("$(ms "$KIT/grader/boot.exp" "$cm" 60 "$B/none.console" "$B/none.results" -- "${QEMU_ARGV[@]}")")
done
printf '  %-34s %6.1f s   (runs: %s)\n' "a boot with no tests" \
	"$(echo "$(median "${boots[@]}") / 1000" | bc -l)" "${boots[*]}"

echo "  the slowest tests of the last reference make grade (every lab):"
"$B/grader/report" --durations 10 "$B"/results-all/lab*.result 2>/dev/null |
	sed -n '/^ *slowest [0-9]* of/,/^ *$/{/^ *$/d; s/^/    /; p}' || true

# Warm batch grading: the reference and a mutant a lab, one slot
# (CLASS=0: not measured).
if [ "${CLASS:-1}" != 0 ]; then
	W=$B/class
	mkdir -p "$W/reference"
	cp "$KIT"/reference-patches/*.patch "$W/reference/"
	for m in "$KIT"/grader/selftest/mutants/0[1-6]-*.patch; do
		n=$(basename "$m" .patch)
		[ -e "$W/${n%%-*}" ] && continue
		mkdir -p "$W/${n%%-*}"
		cp "$KIT"/reference-patches/*.patch "$W/${n%%-*}/"
		cp "$m" "$W/${n%%-*}/zz-mutant.patch"
	done
	n=$(find "$W" -mindepth 1 -maxdepth 1 | wc -l)
	# (The warm-up with two slots builds each slot's starter.)
	"${MK[@]}" grade-all SUBMISSIONS="$W" J=2 OUT="$B/warmup" >>"$LOG" 2>&1 || true
	for j in 1 2; do
		t=$(ms "${MK[@]}" grade-all SUBMISSIONS="$W" J=$j OUT="$B/batch$j")
		printf '  %-34s %6.1f s for %d submissions: %d an hour\n' "make grade-all (warm, J=$j)" \
			"$(echo "$t / 1000" | bc -l)" "$n" "$((n * 3600000 / t))"
	done
fi

if [ -n "${FLAKE:-}" ]; then
	bad=0
	for ((i = 1; i <= FLAKE; i++)); do
		touch_dl
		if ! "${MK[@]}" grade >"$B/flake.$i.log" 2>&1; then
			bad=$((bad + 1))
			echo "  flake run $i: not full marks:"
			grep -E 'FAIL|^lab .*[a-z]$' "$B/flake.$i.log" | sed 's/^/    /'
		fi
	done
	echo "  reference graded $FLAKE times: $((FLAKE - bad)) full marks, $bad not"
fi
echo "log: $LOG"
