#!/bin/bash
# Stage 1 of grading: the kernel tree.
#
# Extracts Debian's linux-source 6.1 into $KSRC (default build/linux) and
# makes it a git repository.  In the full kit, with three tags:
#   pristine  the tree exactly as Debian ships it
#   base      pristine, with Debian's "ignore everything" .gitignore rule gone
#   starter   base + every lab's instrumentation and starter patches
# In a course's kit (make release), with one commit, tagged starter: base
# with the kit's starter files (starter/linux) over it, and no history
# before it (the grader keeps its own).  A student's work is then "git diff
# starter".  Nothing is done twice: an existing tree is left alone (the
# student may be working in it).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TARBALL=${TARBALL:-$LINUX_TARBALL}
GIT="kit_git -C $KSRC"
# Two makes of this kit started together set up one at a time; the second
# then finds the work done.
hold_lock "$BUILD/setup.lock"

# extract: the tarball into $KSRC, as a new git repository.
extract() {
	[ -f "$TARBALL" ] || die "$TARBALL not found (run 'make setup')"
	[ ! -e "$KSRC" ] || [ -z "$(ls -A "$KSRC")" ] ||
		die "$KSRC exists but is not a schedlab tree; move it away or set KSRC="
	stage "extracting $(basename "$TARBALL") into $KSRC"
	tmp=$(mktemp -d "$BUILD/extract.XXXXXX")
	tar -C "$tmp" -xf "$TARBALL"
	mkdir -p "$(dirname "$KSRC")"
	rmdir "$KSRC" 2>/dev/null || true
	mv "$tmp"/linux-source-* "$KSRC"
	rmdir "$tmp"
	$GIT init -q -b main
}

# see_new_files: drop Debian's top-level "ignore everything" .gitignore
# rule, so that files a student creates show.  Debian ignores every file,
# so each tree records them all with "git add -f".
see_new_files() {
	sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\/$/d' \
		"$KSRC/.gitignore"
	sed -i '${/^#$/d}' "$KSRC/.gitignore"
}

if student_kit; then
	if ! git -C "$KSRC" rev-parse -q --verify starter >/dev/null 2>&1; then
		extract
		stage "the starter tree: Linux 6.1 with this kit's starter files, one commit"
		see_new_files
		cp -r "$STARTER_FILES/linux/." "$KSRC/"
		$GIT add -A -f
		tree=$($GIT write-tree)
		$GIT update-ref refs/heads/main "$(student_starter "$KSRC" "$tree")"
		$GIT tag starter
		git -C "$KSRC" config schedlab.starter "$(starter_stamp)"
		[ "$tree" = "$(cat "$STARTER_FILES/tree")" ] || cat >&2 <<MSG
note: $TARBALL is not the linux-source-6.1 this kit was made from
      ($(cat "$STARTER_FILES/linux-source")): your starter tree differs from your
      instructor's.  Hand in your work as patches (git format-patch starter),
      not as a bundle.
MSG
	fi
else
	if ! git -C "$KSRC" rev-parse -q --verify pristine >/dev/null 2>&1; then
		extract
		stage "recording Linux 6.1 in git"
		$GIT add -A -f
		$GIT commit -q -m "Linux 6.1 as shipped by Debian's linux-source-6.1"
		$GIT tag pristine
		see_new_files
		$GIT commit -q -a -m "schedlab: let git see new files at the top level"
		$GIT tag base
	fi
	if ! $GIT rev-parse -q --verify starter >/dev/null; then
		stage "applying the starter patches"
		"$KIT/grader/apply.sh" --tree "$KSRC" --commit starter
		$GIT tag starter
		git -C "$KSRC" config schedlab.starter "$(starter_stamp)"
	fi
fi

if [ "$(git -C "$KSRC" config schedlab.starter)" != "$(starter_stamp)" ]; then
	# The kit changed its starter (a new lab, a fixed stub) after this tree
	# was set up.  The tree is the student's: say so, change nothing.
	cat >&2 <<MSG
note: the kit's starter changed since $KSRC was set up; the tree keeps
      its old starter.  To carry your work onto the new one:
        git -C $KSRC diff starter >$PWD/my-work.patch
        mv $KSRC $KSRC.old && make setup && git -C $KSRC apply --3way $PWD/my-work.patch
MSG
fi
