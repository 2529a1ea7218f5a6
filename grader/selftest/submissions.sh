# shellcheck shell=bash
# Submissions the self-test makes, as a student would, without checking out
# a kernel tree: commits on the kit's starter built with git plumbing in a
# scratch repository that borrows the kernel tree's objects.
#
#   sub_blob PATH                 the starter's PATH, on stdout
#   sub_commit PARENT MSG PATH MODE FILE [PATH MODE FILE]...
#                                 a commit on PARENT where each PATH is FILE
#                                 with MODE (120000: FILE holds the link's
#                                 target); its id on stdout
#   sub_patch COMMIT              COMMIT as a format-patch mbox, on stdout
#   sub_reference LAB             the reference patch of LAB (file name)
#   sub_repo DIR COMMIT           DIR: a student's repository (its own
#                                 objects), tag starter, branch main at COMMIT
SUB_GIT=$SELF/submissions.git
SUB_STARTER=$(kit_git -C "$KSRC" rev-parse starter)
if [ ! -d "$SUB_GIT" ]; then
	kit_git init -q --bare "$SUB_GIT"
	kit_git -C "$KSRC" rev-parse --path-format=absolute --git-common-dir |
		sed 's|$|/objects|' >"$SUB_GIT/objects/info/alternates"
fi
sgit() { kit_git --git-dir="$SUB_GIT" "$@"; }

sub_blob() { sgit cat-file blob "$SUB_STARTER:$1"; }

sub_commit() {
	local parent=$1 msg=$2 idx=$SELF/submissions.index sha tree
	shift 2
	GIT_INDEX_FILE=$idx sgit read-tree "$parent"
	while [ $# -gt 0 ]; do
		sha=$(sgit hash-object -w -- "$3")
		GIT_INDEX_FILE=$idx sgit update-index --cacheinfo "$2,$sha,$1"
		shift 3
	done
	tree=$(GIT_INDEX_FILE=$idx sgit write-tree)
	rm -f "$idx"
	sgit commit-tree -p "$parent" -m "$msg" "$tree"
}

sub_patch() { sgit format-patch --binary -1 --stdout "$1"; }

sub_reference() { ls "$KIT"/reference-patches/"$(printf %02d "$((10#$1))")"-*.patch; }

sub_repo() {
	local dir=$1 commit=$2
	rm -rf "$dir"
	kit_git clone -q --local --no-checkout "$KSRC" "$dir"
	# The push's receiving side does not see kit_git's -c options (git
	# clears them for the other end), and its "gc --auto" goes on in the
	# background: it packed this repository's loose objects while a
	# grader was copying them (seen once, "cp: cannot stat ...objects/fe").
	kit_git -C "$dir" config gc.auto 0
	kit_git -C "$dir" config receive.autogc false
	sgit push -q -f "$dir" "$commit:refs/heads/incoming" "$SUB_STARTER:refs/tags/starter"
	kit_git -C "$dir" update-ref refs/heads/main "$commit"
	kit_git -C "$dir" update-ref -d refs/heads/incoming
	kit_git -C "$dir" symbolic-ref HEAD refs/heads/main
}

# The reference solution of lab 1 as a commit on the starter.
sub_lab1_reference() {
	local d=$SELF/submissions.lab1
	if [ -z "${SUB_LAB1:-}" ]; then
		rm -rf "$d"
		mkdir -p "$d/kernel/sched"
		sub_blob kernel/sched/deadline.c >"$d/kernel/sched/deadline.c"
		# The reference patch applied to the blob alone, by git apply
		# outside any repository (the kit's is above: the ceiling).
		(cd "$d" && GIT_CEILING_DIRECTORIES=$SELF kit_git apply "$(sub_reference 1)") ||
			die "lab 1's reference does not apply to deadline.c alone"
		SUB_LAB1=$(sub_commit "$SUB_STARTER" "lab 1" kernel/sched/deadline.c 100644 \
			"$d/kernel/sched/deadline.c")
	fi
	echo "$SUB_LAB1"
}
