#!/bin/bash
# Grade every submission of a folder and write one gradebook.
#
#   grade-all.sh --submissions DIR --out DIR [--labs "01 02"] [-j N]
#                [--kind KIND]
#
# Every entry of the submissions folder (a patch file, a folder of patches,
# a bundle, or with --kind repo a repository: see grade-submission.sh) is
# one student, named after the entry without .patch/.diff/.bundle/.mbox.
# Two entries that make one name (alice.patch and alice.diff) are refused:
# neither is graded, and the batch says so.  Each student's report goes to
# OUT/FOLDER/, FOLDER being the name with every byte but letters, digits
# and "_+-." written %XX (so no two names share a folder, and no name is
# hidden, "..", or taken for an option); OUT/FOLDER/name holds the name.
#
# N grading slots work at once (default: 1 per 2 cores), each with its own
# tree and build folder.  A student already graded from the same
# submission, labs and kit (every file of the kit but its documentation and
# self-test, the kernel tree's base, HIDDEN_TESTS) is not graded again, so
# an interrupted batch resumes where it stopped and a kit change regrades.
# A grading the grader itself could not finish is never taken as graded:
# the batch names it, and exits non-zero.  Writes OUT/gradebook.csv,
# OUT/gradebook.json, OUT/class.html (the class at a glance: each lab's
# scores, the tests most failed and what they said, links to each
# student's OUT/STUDENT/report.html) and OUT/class.json (its numbers).
set -euo pipefail
shopt -s extglob
. "$(dirname "$0")/lib.sh"

SUBS='' OUT='' LABS='' KIND='' JOBS_N=$(( ($(nproc) + 1) / 2 ))
while [ $# -gt 0 ]; do
	case $1 in
	--submissions) SUBS=$2 ;;
	--out) OUT=$2 ;;
	--labs) LABS=$2 ;;
	--kind) KIND=$2 ;;
	-j) JOBS_N=$2 ;;
	*) die "grade-all.sh: unknown argument $1" ;;
	esac
	shift 2
done
[ -d "$SUBS" ] && [ -n "$OUT" ] || die "usage: grade-all.sh --submissions DIR --out DIR [-j N]"
[[ $JOBS_N =~ ^[1-9][0-9]*$ ]] || die "-j takes a number of slots"
[ -n "$LABS" ] || LABS=$(all_labs)
mkdir -p -- "$OUT"
OUT=$(realpath -e -- "$OUT")
mapfile -d '' -t entries < <(find "$SUBS" -mindepth 1 -maxdepth 1 ! -name '.*' -print0 | LC_ALL=C sort -z)
[ ${#entries[@]} -gt 0 ] || die "no submissions in $SUBS"

# student_name ENTRY: the entry's name without .patch/.diff/.bundle/.mbox.
student_name() {
	local n=${1##*/}
	printf '%s' "${n%.@(patch|diff|bundle|mbox)}"
}

# folder_of NAME: NAME with each byte but [A-Za-z0-9_+-] (and a "." not
# leading) as %XX: one folder a name, and never the same for two names.
folder_of() {
	local LC_ALL=C s=$1 out='' c i
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		[A-Za-z0-9_+-]) out+=$c ;;
		.) if [ "$i" = 0 ]; then out+=%2E; else out+=.; fi ;;
		*) printf -v c '%%%02X' "'$c"; out+=${c: -3} ;;
		esac
	done
	printf '%s' "$out"
}

# What a grading depends on, but the submission: the kit, as a hash of
# every file that can change a grade.
kit_hash() {
	{
		if git -C "$KIT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
			(cd "$KIT" && kit_git ls-files -z --cached --others --exclude-standard --deduplicate \
				-- . ':!:*.md' ':!:grader/selftest/')
		else
			(cd "$KIT" && find . \( -path ./build -o -path ./.git -o -path ./grader/selftest \) -prune \
				-o -type f ! -name '*.md' -printf '%P\0')
		fi | LC_ALL=C sort -z | (cd "$KIT" && xargs -0r sha256sum -- 2>&1)
		if [ -n "${HIDDEN_TESTS:-}" ]; then
			(cd "$HIDDEN_TESTS" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum --)
		fi
		kit_git -C "$KSRC" rev-parse -q --verify 'base^{commit}' || true
	} | sha256sum | cut -d' ' -f1
}

# content_hash ENTRY: the submission's own content (for a repository, its
# refs: they name every commit it holds).
content_hash() {
	local e=$1 g
	if [ "$KIND" = repo ]; then
		g=$e/.git
		[ -d "$g" ] || g=$e
		(cd "$g" && find HEAD packed-refs refs -type f -print0 2>/dev/null | LC_ALL=C sort -z |
			xargs -0r sha256sum --)
	elif [ -d "$e" ]; then
		(cd "$e" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum --)
	else
		sha256sum <"$e"
	fi | sha256sum | cut -d' ' -f1
}

stage "hashing the kit"
KIT_HASH=$(kit_hash)

# One name, one student: refuse every entry of a name that two entries make.
declare -A count=()
for e in "${entries[@]}"; do
	n=$(student_name "$e")
	count[$n]=$(( ${count[$n]:-0} + 1 ))
done
ERRORS=$OUT/grader-errors.txt
: >"$ERRORS"
todo=()
for e in "${entries[@]}"; do
	n=$(student_name "$e")
	if [ "${count[$n]}" -gt 1 ]; then
		printf '%q: %d submissions are student %q; none of them is graded (rename all but one)\n' \
			"${e##*/}" "${count[$n]}" "$n" | tee -a "$ERRORS" >&2
	else
		todo+=("$e")
	fi
done

# worker N: grade the entries i with i % JOBS_N == N, in slot N.
worker() {
	local w=$1 i e name folder out s status why
	for ((i = w; i < ${#todo[@]}; i += JOBS_N)); do
		e=${todo[$i]}
		name=$(student_name "$e")
		folder=$(folder_of "$name")
		out=$OUT/$folder
		s=$(printf '%s\n' "$KIT_HASH" "$LABS" "$KIND" "$(content_hash "$e")" | sha256sum | cut -d' ' -f1)
		if [ -f "$out/.graded" ] && [ "$(cat "$out/.graded")" = "$s" ]; then
			stage "$folder: already graded"
			continue
		fi
		rm -rf -- "$out"
		mkdir -p -- "$out"
		printf '%s' "$name" >"$out/name"
		stage "$folder: grading (slot $w)"
		status=0
		STAGE="$folder" "$KIT/grader/grade-submission.sh" --submission "$e" --out "$out" \
			--labs "$LABS" --slot "$w" ${KIND:+--kind "$KIND"} >"$out/report.txt" 2>"$out/stages.log" ||
			status=$?
		# 0 and 1: graded (every test passed, or not); anything else: not.
		if [ $status -le 1 ]; then
			echo "$s" >"$out/.graded.tmp"
			mv "$out/.graded.tmp" "$out/.graded"
		else
			# Its "error:" line, or else the log's last.
			why=$(grep -E '^(grader )?error: ' "$out/stages.log" | tail -n 1 | sed -E 's/^(grader )?error: //' || true)
			[ -n "$why" ] || why=$(tail -n 1 "$out/stages.log")
			printf '%q: the grader failed, nothing graded: %s (see %s)\n' "${e##*/}" "$why" "$out/stages.log" |
				tee -a "$ERRORS" >&2
		fi
	done
}

pids=()
for ((w = 0; w < JOBS_N; w++)); do
	worker "$w" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done

# The gradebook: a row a student, a score a lab, the worst verdict.
# A refused name keeps no folder of an earlier run (its grade is not theirs).
for n in "${!count[@]}"; do
	[ "${count[$n]}" = 1 ] || rm -rf -- "${OUT:?}/$(folder_of "$n")"
done
# Every student once, a refused one as not graded.
declare -A seen=()
dirs=()
for e in "${entries[@]}"; do
	f=$(folder_of "$(student_name "$e")")
	[ -n "${seen[$f]:-}" ] || dirs+=("$OUT/$f")
	seen[$f]=1
done
"$BUILD/grader/report" --gradebook-csv "$OUT/gradebook.csv" --gradebook-json "$OUT/gradebook.json" \
	--class-html "$OUT/class.html" --class-json "$OUT/class.json" --labs "$LABS" -- "${dirs[@]}" ||
	[ $? = 1 ]
if [ -s "$ERRORS" ]; then
	echo "error: $(wc -l <"$ERRORS") submission(s) not graded, listed in $ERRORS:" >&2
	sed 's/^/  /' "$ERRORS" >&2
	exit 1
fi
rm -f "$ERRORS"
