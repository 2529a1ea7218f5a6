#!/bin/bash
# What a grading slot's tree goes through, each step run by
# grade-submission.sh inside the slot's sandbox (sandbox.sh):
#
#   slot.sh clean TREE [--prune]   back to the kit's starter, whatever the
#                                  last submission (or a killed grader) left;
#                                  --prune: its objects too
#   slot.sh starter TREE           (re)make branch kit-starter: base + the
#                                  kit's instrumentation and starter patches
#   slot.sh bundle REPO BRANCH OUT a repository submission as a bundle of
#                                  starter..BRANCH (REPO is only read)
#   slot.sh apply TREE SUB KIND BRANCH
#                                  the submission (KIND patch, folder or
#                                  bundle), committed onto kit-starter
#   slot.sh changes TREE           every changed path, NUL-separated:
#                                  "NEWMODE STATUS HAS_NUL" then the path
#   slot.sh diff TREE MAX          the change as a text diff, at most MAX+1
#                                  bytes (more means too large)
#
# Exit status 3: the submission's fault (it does not apply), with the reason
# on stdout ("refused: WHY"); anything else but 0 is the grader's own failure.  Git reads no
# configuration but the slot's own (made by the kit) and the command line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Everything the student's side could have configured, turned off.
sgit() {
	kit_git -C "$TREE" -c core.hooksPath=/dev/null -c core.fsmonitor=false \
		-c core.attributesFile=/dev/null "$@"
}
refuse() { printf 'refused: %s\n' "$*"; exit 3; }
# What a submission may write into the tree: a lab's change is a few
# hundred lines in a few files (the six references change 4 files, 0.5 MB
# of them).
APPLY_MAX=$((16 << 20)) APPLY_FILES=500

cmd=$1 TREE=${2:-}
case $cmd in
clean)
	g=$TREE/.git
	# A file is unchanged when its mtime and size are: the slot changing
	# hands (SANDBOX on or off) changes every file's owner and ctime, and
	# git would rewrite them all (a full rebuild) or refuse to patch them.
	if [ "$(sgit config core.checkStat)" != minimal ]; then
		sgit config core.checkStat minimal
		sgit config core.trustctime false
	fi
	[ ! -d "$g/rebase-apply" ] || sgit am --abort >/dev/null 2>&1 || true
	[ ! -d "$g/rebase-merge" ] || sgit rebase --abort >/dev/null 2>&1 || true
	rm -rf "$g/rebase-apply" "$g/rebase-merge"
	find "$g" -maxdepth 3 -name '*.lock' -type f -delete
	rm -f "$g/MERGE_HEAD" "$g/CHERRY_PICK_HEAD" "$g/REVERT_HEAD" "$g/info/attributes"
	# The files the last submission changed, back to the starter's
	# content and to its commit's time: older than the starter's kept
	# build (grade-submission.sh), so only the next submission's own
	# changes are compiled again.
	mapfile -d '' -t changed < <(sgit diff --name-only -z --no-renames kit-starter 2>/dev/null || true)
	sgit checkout -q -f --detach kit-starter
	t=$(sgit log -1 --format=%ct kit-starter)
	for f in "${changed[@]}"; do
		[ ! -f "$TREE/$f" ] || [ -L "$TREE/$f" ] || touch -h -d "@$t" -- "$TREE/$f"
	done
	# Nothing of the last submission stays in the repository either (its
	# commits, a fetched bundle, their messages and reflogs) where the
	# next build could read it: the uid isolation cannot hide .git from
	# the build, as bubblewrap does (0.7 s a submission).
	rm -rf "$g/FETCH_HEAD" "$g/ORIG_HEAD" "$g/COMMIT_EDITMSG" "$g/logs"
	if [ "${3:-}" = --prune ]; then
		sgit for-each-ref --format='%(refname)' |
			{ grep -vxE 'refs/(heads/kit-starter|tags/base|tags/kit-student-starter)' || true; } |
			while read -r ref; do sgit update-ref -d "$ref"; done
		sgit -c gc.auto=0 gc -q --prune=now
	fi
	# The build is out of tree: a file that is not the starter's is rare.
	dirty() { [ -n "$(sgit status --porcelain --ignored --untracked-files=all)" ]; }
	if dirty; then
		sgit clean -q -ffdx
		! dirty || die "the grading slot $TREE could not be made clean"
	fi
	[ "$(sgit rev-parse HEAD)" = "$(sgit rev-parse kit-starter)" ] ||
		die "the grading slot $TREE is not at the starter after a reset"
	;;
starter)
	sgit checkout -q -f --detach base
	"$KIT/grader/apply.sh" --tree "$TREE" --commit starter
	sgit branch -q -f kit-starter HEAD
	;;
bundle)
	repo=$2 branch=$3 out=$4
	# The student's repository belongs to someone else: say it is safe to
	# read (it is only read, here, with nothing of the grader's in reach).
	rgit() { GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -c safe.directory='*' \
		-c core.hooksPath=/dev/null -c core.fsmonitor=false -C "$repo" "$@"; }
	rgit rev-parse -q --verify 'refs/tags/starter^{commit}' >/dev/null ||
		refuse "the repository has no 'starter' tag: is it a schedlab tree?"
	rgit rev-parse -q --verify --end-of-options "$branch^{commit}" >/dev/null ||
		refuse "the repository has no branch or commit '$branch'"
	rgit bundle create -q "$out" "refs/tags/starter..$branch" 2>&1 ||
		refuse "could not make a bundle of starter..$branch of the repository"
	;;
apply)
	sub=$3 kind=$4 branch=$5
	# apply_patch FILE: one patch, committed; mbox (format-patch) or plain
	# diff (apply.sh, as for the kit's own patches).  A text patch writes
	# about its own size (bounded by the submission's); a binary one
	# (deflated) could write any amount, and the labs change source only.
	apply_patch() {
		[ -s "$1" ] || return 0
		! grep -q '^GIT binary patch$' "$1" ||
			refuse "${1##*/} holds a binary patch: the labs change source files only"
		if head -n 1 "$1" | grep -q '^From '; then
			sgit am -q --3way "$1" || { sgit am --abort || true; return 1; }
		else
			"$KIT/grader/apply.sh" --tree "$TREE" "$1"
		fi
	}
	case $kind in
	folder)
		mapfile -d '' -t patches < <(find "$sub" -mindepth 1 -maxdepth 1 -type f \
			\( -name '*.patch' -o -name '*.diff' \) -print0 | LC_ALL=C sort -z)
		[ ${#patches[@]} -gt 0 ] ||
			refuse "the folder holds no patch (*.patch or *.diff file); it holds: $(
				cd "$sub" && find . -mindepth 1 -maxdepth 2 -printf '%P ' | head -c 300)"
		for p in "${patches[@]}"; do
			echo "applying ${p##*/}"
			apply_patch "$p" || refuse "${p##*/} does not apply to the starter tree"
		done
		;;
	patch)
		apply_patch "$sub" || refuse "the patch does not apply to the starter tree"
		;;
	bundle)
		# Built on the full kit's starter, or on a course's kit's (one commit).
		sgit update-ref refs/tags/kit-student-starter "$(student_starter "$TREE" kit-starter)"
		sgit bundle verify -q "$sub" >/dev/null 2>&1 ||
			refuse "the bundle is not built on this kit's starter (make it with: git bundle create F starter..BRANCH)"
		sgit fetch -q --no-tags "$sub" "$branch" ||
			refuse "the bundle has no branch '$branch'"
		sgit merge-base --is-ancestor kit-starter FETCH_HEAD ||
			sgit merge-base --is-ancestor kit-student-starter FETCH_HEAD ||
			refuse "the bundle's branch does not start from this kit's starter"
		# What checking it out would write, bounded before it is written
		# (a small bundle can hold huge files that compress well).
		files=0 bytes=0
		while read -r t size; do
			files=$((files + 1))
			[ "$t" != blob ] || bytes=$((bytes + size))
		done < <(sgit diff --raw --no-renames --abbrev=40 kit-starter FETCH_HEAD | cut -d' ' -f4 |
			grep -v '^0*$' | sgit cat-file --batch-check='%(objecttype) %(objectsize)')
		[ "$files" -le "$APPLY_FILES" ] && [ "$bytes" -le "$APPLY_MAX" ] ||
			refuse "the bundle's change writes $((bytes >> 20)) MB in $files files: more than the limit of $((APPLY_MAX >> 20)) MB or $APPLY_FILES files"
		sgit checkout -q --detach FETCH_HEAD
		;;
	*) die "slot.sh apply: unknown kind $kind" ;;
	esac
	;;
changes)
	sgit diff --raw -z --no-renames --no-ext-diff --no-textconv --abbrev=40 kit-starter HEAD |
		while IFS= read -r -d '' meta && IFS= read -r -d '' path; do
			read -r _ mode _ sha status <<<"${meta#:}"
			nul=0
			if [ "$mode" = 100644 ] && sgit cat-file blob "$sha" | tr -d '\n' | grep -qaP '\x00'; then
				nul=1
			fi
			printf '%s %s %s\0%s\0' "$mode" "$status" "$nul" "$path"
		done
	;;
diff)
	{ sgit -c core.attributesFile="$KIT/grader/diff-attributes" diff --text --no-ext-diff --no-textconv --no-color --no-renames \
		--src-prefix=a/ --dst-prefix=b/ kit-starter HEAD || true; } | head -c "$(($3 + 1))"
	;;
*) die "slot.sh: unknown command $cmd" ;;
esac
