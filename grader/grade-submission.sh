#!/bin/bash
# Grade one submission on a fresh copy of the starter tree.
#
#   grade-submission.sh --submission PATH --out DIR [--labs "01 02"]
#                       [--slot N] [--branch BRANCH]
#
# PATH is one of:
#   a patch file          plain diff (git apply) or format-patch mbox (git am);
#                         an empty file is "no changes"
#   a folder of patches   every *.patch / *.diff in it, in name order
#   a git bundle          made with "git bundle create F starter..BRANCH"
#   a git repository      the student's tree: "git diff starter BRANCH" of it
#
# The submission is applied in grading slot N ($BUILD/grading/slotN: a clone
# of the kernel repository and its own build folder, reused so that each
# submission is an incremental build); the instructor's and the student's
# trees are only read.  Stages, each of which can end the grading with a
# verdict for every lab: apply (no-apply), allowed files (rejected), build
# (no-build), then one boot a lab.  A checkpatch report of the diff is kept
# beside the results (not scored).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SUB='' OUT='' LABS='' SLOT=0 BRANCH=HEAD
while [ $# -gt 0 ]; do
	case $1 in
	--submission) SUB=$2 ;;
	--out) OUT=$2 ;;
	--labs) LABS=$2 ;;
	--slot) SLOT=$2 ;;
	--branch) BRANCH=$2 ;;
	*) die "grade-submission.sh: unknown argument $1" ;;
	esac
	shift 2
done
[ -n "$SUB" ] && [ -n "$OUT" ] || die "usage: grade-submission.sh --submission PATH --out DIR"
[ -e "$SUB" ] || die "no submission at $SUB"
SUB=$(cd "$(dirname "$SUB")" && pwd)/$(basename "$SUB")
[ -n "$LABS" ] || LABS=$(all_labs)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SLOTDIR=$BUILD/grading/slot$SLOT
TREE=$SLOTDIR/tree
GIT="kit_git -C $TREE"
APPLY_LOG=$OUT/apply.log
: >"$APPLY_LOG"

# The starter, as the kit makes it now: rebuilt only when its patches change.
stamp=$(starter_stamp)
if [ ! -e "$TREE/.git" ]; then
	stage "making grading slot $SLOT"
	mkdir -p "$SLOTDIR"
	git clone -q --shared --no-checkout "$KSRC" "$TREE"
fi
git -C "$TREE" fetch -q --tags "$KSRC"
if [ "$(cat "$SLOTDIR/starter.stamp" 2>/dev/null)" != "$stamp" ]; then
	$GIT checkout -q -f --detach base
	"$KIT/grader/apply.sh" --tree "$TREE" --commit starter >>"$APPLY_LOG" 2>&1 ||
		die "the kit's starter patches do not apply ($APPLY_LOG)"
	$GIT branch -q -f kit-starter HEAD
	echo "$stamp" >"$SLOTDIR/starter.stamp"
fi
$GIT checkout -q -f --detach kit-starter
$GIT clean -q -fdx

# apply_patch FILE: one patch, committed; mbox (format-patch) or plain diff
# (apply.sh, as for the kit's own patches).
apply_patch() {
	[ -s "$1" ] || return 0
	if head -n 1 "$1" | grep -q '^From '; then
		$GIT am -q --3way "$1" || { $GIT am --abort || true; return 1; }
	else
		"$KIT/grader/apply.sh" --tree "$TREE" "$1"
	fi
}

apply_submission() {
	local p
	if [ -d "$SUB/.git" ] || git -C "$SUB" rev-parse --is-bare-repository 2>/dev/null | grep -q true; then
		git -C "$SUB" rev-parse -q --verify starter >/dev/null ||
			{ echo "$SUB has no 'starter' tag: is it a schedlab tree?"; return 1; }
		git -C "$SUB" diff --binary starter "$BRANCH" >"$OUT/submission.diff" || return 1
		apply_patch "$OUT/submission.diff"
	elif [ -d "$SUB" ]; then
		for p in $(find "$SUB" -maxdepth 1 -type f \( -name '*.patch' -o -name '*.diff' \) | LC_ALL=C sort); do
			echo "applying $(basename "$p")"
			apply_patch "$p" || return 1
		done
	elif git bundle list-heads "$SUB" >/dev/null 2>&1; then
		# On the full kit's starter, or on a course's kit's (one commit).
		$GIT update-ref refs/tags/kit-student-starter "$(student_starter "$TREE" kit-starter)"
		$GIT fetch -q "$SUB" "$BRANCH" || {
			echo "the bundle is not built on this kit's starter (make it with: git bundle create F starter..BRANCH)"
			return 1
		}
		$GIT merge-base --is-ancestor kit-starter FETCH_HEAD ||
			$GIT merge-base --is-ancestor kit-student-starter FETCH_HEAD || {
			echo "the bundle's branch does not start from this kit's starter"
			return 1
		}
		$GIT checkout -q --detach FETCH_HEAD
	else
		apply_patch "$SUB"
	fi
}

grade() { "$KIT/grader/grade.sh" --out "$OUT" --labs "$LABS" --title "$(basename "$SUB")" "$@"; }

stage "applying $(basename "$SUB")"
if ! apply_submission >>"$APPLY_LOG" 2>&1; then
	grade --verdict no-apply --detail "$(basename "$SUB") does not apply to the starter tree" --log "$APPLY_LOG"
	exit 0
fi

# Only the files some lab's solution may change (lab.conf ALLOWED).
allowed=()
for lab in $(all_labs); do
	for a in $(lab_conf "$lab" ALLOWED); do allowed+=("$a"); done
done
outside=$($GIT diff --name-only kit-starter HEAD | while read -r f; do
	ok=
	for a in "${allowed[@]}"; do
		# shellcheck disable=SC2053
		[[ $f == $a ]] && ok=1
	done
	[ -n "$ok" ] || echo "$f"
done)
if [ -n "$outside" ]; then
	echo "$outside" | sed 's/^/changes a file no lab allows: /' >"$OUT/rejected.txt"
	grade --verdict rejected --detail "changes $(echo "$outside" | wc -l) file(s) outside the labs' own; not graded as is" \
		--log "$OUT/rejected.txt"
	exit 0
fi

# Style, reported and not scored.
$GIT diff kit-starter HEAD >"$OUT/submission.diff"
if [ -s "$OUT/submission.diff" ]; then
	perl "$TREE/scripts/checkpatch.pl" --no-tree --no-signoff --terse --show-types \
		"$OUT/submission.diff" >"$OUT/checkpatch.txt" 2>&1 || true
else
	echo "total: 0 errors, 0 warnings, 0 lines checked (no changes)" >"$OUT/checkpatch.txt"
fi

grade --src "$TREE" --obj "$SLOTDIR/obj" --style "$OUT/checkpatch.txt" --similarity "$OUT/submission.diff"
