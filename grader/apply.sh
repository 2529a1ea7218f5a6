#!/bin/bash
# Stage 2 of grading: apply patches to a kernel tree, one commit each.
#
#   apply.sh --tree DIR --commit starter        every lab's starter patch
#   apply.sh --tree DIR --commit reference [LAB...]
#                                               reference patches (all or LABs)
#   apply.sh --tree DIR PATCH...                the given patches (git apply)
#
# A patch that does not apply leaves the tree as it was and fails with
# git's own message naming the patch.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TREE=
KIND=
while [ $# -gt 0 ]; do
	case $1 in
	--tree) TREE=$2; shift 2 ;;
	--commit) KIND=$2; shift 2 ;;
	*) break ;;
	esac
done
[ -n "$TREE" ] || die "apply.sh: --tree DIR is required"
GIT="kit_git -C $TREE"

# lab_dirs [LAB...]: the lab folders, all or the ones named by number.
lab_dirs() {
	local n
	for n in ${*:-$(all_labs)}; do
		lab_dir "$n"
	done
}

# apply_one PATCH MESSAGE: one patch, one commit; untouched tree on failure.
apply_one() {
	local out
	if ! out=$($GIT apply --index --whitespace=nowarn "$1" 2>&1); then
		printf '%s\n' "$out" >&2
		die "patch does not apply: $1"
	fi
	$GIT commit -q --allow-empty -m "$2"
}

case $KIND in
starter)
	for d in $(lab_dirs); do
		if [ -f "$d/instrumentation.patch" ]; then
			apply_one "$d/instrumentation.patch" \
				"schedlab: instrumentation for $(basename "$d")"
		fi
		apply_one "$d/starter.patch" "schedlab: starter for $(basename "$d")"
	done
	;;
reference)
	for d in $(lab_dirs "$@"); do
		p=$KIT/reference-patches/$(basename "$d").patch
		apply_one "$p" "schedlab: reference for $(basename "$d")"
	done
	;;
"")
	for p in "$@"; do
		apply_one "$p" "schedlab: $(basename "$p")"
	done
	;;
*) die "apply.sh: unknown --commit $KIND" ;;
esac
