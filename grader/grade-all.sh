#!/bin/bash
# Grade every submission of a folder and write one gradebook.
#
#   grade-all.sh --submissions DIR --out DIR [--labs "01 02"] [-j N]
#
# Every entry of the submissions folder (a patch file, a folder of patches,
# a bundle or a repository: see grade-submission.sh) is one student, named
# after the entry.  N grading slots work at once (default: 1 per 2 cores),
# each with its own tree and build folder.  A submission already graded
# from the same content is not graded again, so an interrupted batch
# resumes where it stopped.  Writes OUT/NAME/ (each student's report) and
# OUT/gradebook.csv, OUT/gradebook.json.
set -euo pipefail
shopt -s extglob
. "$(dirname "$0")/lib.sh"

SUBS='' OUT='' LABS='' JOBS_N=$(( ($(nproc) + 1) / 2 ))
while [ $# -gt 0 ]; do
	case $1 in
	--submissions) SUBS=$2 ;;
	--out) OUT=$2 ;;
	--labs) LABS=$2 ;;
	-j) JOBS_N=$2 ;;
	*) die "grade-all.sh: unknown argument $1" ;;
	esac
	shift 2
done
[ -d "$SUBS" ] && [ -n "$OUT" ] || die "usage: grade-all.sh --submissions DIR --out DIR [-j N]"
[ -n "$LABS" ] || LABS=$(all_labs)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
mapfile -t entries < <(find "$SUBS" -mindepth 1 -maxdepth 1 ! -name '.*' | LC_ALL=C sort)
[ ${#entries[@]} -gt 0 ] || die "no submissions in $SUBS"

# What a grading depends on: the submission's content, the kit, the labs.
stamp() {
	{ find "$1" -type f ! -path '*/.git/*' -print0 | LC_ALL=C sort -z | xargs -0 cat
	  [ ! -d "$1/.git" ] || git -C "$1" rev-parse HEAD
	  cat "$KIT"/labs/*/*.patch "$KIT"/reference-patches/*.patch "$KIT"/labs/*/tests/*.c 2>/dev/null
	  echo "$LABS"; } | md5sum | cut -d' ' -f1
}

# student_name ENTRY: the entry's name without .patch/.diff/.bundle/.mbox.
student_name() {
	local n
	n=$(basename "$1")
	echo "${n%.@(patch|diff|bundle|mbox)}"
}

# worker N: grade the entries i with i % JOBS_N == N, in slot N.
worker() {
	local w=$1 i name out s
	for ((i = w; i < ${#entries[@]}; i += JOBS_N)); do
		name=$(student_name "${entries[$i]}")
		out=$OUT/$name
		s=$(stamp "${entries[$i]}")
		if [ "$(cat "$out/.graded" 2>/dev/null)" = "$s" ]; then
			stage "$name: already graded"
			continue
		fi
		rm -rf "$out"
		mkdir -p "$out"
		stage "$name: grading (slot $w)"
		if STAGE="$name" "$KIT/grader/grade-submission.sh" --submission "${entries[$i]}" \
			--out "$out" --labs "$LABS" --slot "$w" >"$out/report.txt" 2>"$out/stages.log"; then
			echo "$s" >"$out/.graded"
		else
			stage "$name: the grader failed (see $out/stages.log)"
		fi
	done
}

# Several slots: their cold builds share one compiler cache (paths made
# relative to the grading folder, so one slot's objects serve the others).
if [ "$JOBS_N" -gt 1 ] && command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD/grading}
fi

pids=()
for ((w = 0; w < JOBS_N; w++)); do
	worker "$w" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done

# The gradebook: a row a student, a score a lab, the worst verdict.
dirs=()
for e in "${entries[@]}"; do dirs+=("$OUT/$(student_name "$e")"); done
"$BUILD/grader/report" --gradebook-csv "$OUT/gradebook.csv" --gradebook-json "$OUT/gradebook.json" \
	--labs "$LABS" -- "${dirs[@]}" || [ $? = 1 ]
