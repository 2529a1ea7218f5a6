#!/bin/bash
# Grade one submission on a fresh copy of the starter tree (instructor
# grading: the submission is hostile input).
#
#   grade-submission.sh --submission PATH --out DIR [--labs "01 02"]
#                       [--slot N] [--branch BRANCH] [--kind KIND] [--test NAME [--seed N]]
#                       [--artifacts none]
#
# KIND (also SUBMISSION_KIND=) says what PATH is:
#   patch    a patch file: plain diff (git apply) or format-patch mbox
#            (git am); an empty file is "no changes"
#   folder   a folder of patches: every *.patch / *.diff file in it, in
#            name order (and nothing else in it: no file is run or read
#            as git configuration)
#   bundle   a git bundle, made with "git bundle create F starter..BRANCH"
#   repo     a git repository, the student's tree: its starter..BRANCH
# Without KIND: a folder is "folder", a file that starts as a bundle is
# "bundle", any other file is "patch".  A folder is a repository only when
# KIND=repo says so, never from its looks (HEAD, config, objects/).
#
# The submission is applied in grading slot N ($BUILD/grading/slotN: a
# clone of the kernel repository and its own build folder, reused so that
# each submission is an incremental build), held for the whole grading (a
# second grader on the same slot waits), and made clean first whatever the
# last grading left.  Everything that touches the submission (applying it,
# reading the change, checkpatch, the build, the boots) runs in the slot's
# sandbox (sandbox.sh), within limits; the grader refuses to run without it
# unless SANDBOX=off.  Stages, each of which can end the grading with a
# verdict for every lab: apply (no-apply), allowed changes (rejected),
# build (no-build), then the boots.  Kept beside the results, not scored:
# submission.diff (the change, always as text), checkpatch.txt, the
# change map changes.txt (similarity --changes), and review.txt (what can
# only serve an attack, matched by review-patterns: in the added lines,
# the files the build read outside the tree, and the preprocessed source
# the change reaches).
# --artifacts none: only results.json leaves this machine (Gradescope),
# and it says how the student makes the logs and timelines (grade.sh).
#
# Exit status, as grade.sh's: 0 graded, every test passed; 1 graded, a test
# failed or a lab got a verdict; 2 the grader itself failed (said on
# stderr), nothing was graded.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# lib.sh's die: the grader's own failure.
# shellcheck disable=SC2034
DIE_STATUS=2
. "$KIT/grader/sandbox.sh"

# Largest submission and change graded, in bytes (a lab's is a few KB).
SUBMISSION_MAX=${SUBMISSION_MAX:-4194304}
# Largest repository copied in (KIND=repo: the student's whole tree, history
# included; the kit's is about 250 MB).
REPO_MAX=${REPO_MAX:-1073741824}

SUB='' OUT='' LABS='' SLOT=0 BRANCH=HEAD KIND=${SUBMISSION_KIND:-} TEST= SEED= ARTIFACTS=
while [ $# -gt 0 ]; do
	case $1 in
	--submission) SUB=$2 ;;
	--out) OUT=$2 ;;
	--labs) LABS=$2 ;;
	--slot) SLOT=$2 ;;
	--branch) BRANCH=$2 ;;
	--kind) KIND=$2 ;;
	--test) TEST=$2 ;;
	--seed) SEED=$2 ;;
	--artifacts) ARTIFACTS=$2 ;;
	*) die "grade-submission.sh: unknown argument $1" ;;
	esac
	shift 2
done
[ -n "$SUB" ] && [ -n "$OUT" ] || die "usage: grade-submission.sh --submission PATH --out DIR"
[ -e "$SUB" ] || [ -L "$SUB" ] || die "no submission at $SUB"
# Its folder resolved, not the submission itself: a symbolic link is
# refused below, never followed.
SUB=$(realpath -e -- "$(dirname -- "$SUB")")/$(basename -- "$SUB")
[[ $SLOT =~ ^[0-9]+$ ]] || die "--slot takes a number"
[ -n "$LABS" ] || LABS=$(all_labs)
mkdir -p -- "$OUT"
OUT=$(realpath -e -- "$OUT")
NAME=$(basename -- "$SUB")
NAME=${NAME//[![:print:]]/?}
if [ -z "$KIND" ]; then
	if [ -L "$SUB" ]; then
		KIND=patch
	elif [ -d "$SUB" ]; then
		KIND=folder
	elif head -c 16 "$SUB" | grep -qa '^# v[23] git bundle'; then
		KIND=bundle
	else
		KIND="patch"
	fi
fi
case $KIND in
patch | bundle) [ -f "$SUB" ] || [ -L "$SUB" ] || die "a $KIND submission is a file: $SUB" ;;
folder | repo) [ -d "$SUB" ] || [ -L "$SUB" ] || die "a $KIND submission is a folder: $SUB" ;;
*) die "unknown kind of submission '$KIND' (patch, folder, bundle or repo)" ;;
esac
sandbox_require
# In the uid isolation, each slot has a user of its own: no slot reads
# another's, and what a stage leaves running is killed by user.
sandbox_slot_user "$SLOT"
sandbox_reach "$OUT" || die "the sandbox cannot write the boots' logs in $OUT: choose an --out it can reach"
# In the uid isolation, a grading's results are root's once it ends: the
# next submission's stages cannot read them.
[ "$SANDBOX_KIND" != uid ] || trap 'chmod go-rwx "$OUT"' EXIT
echo "$SANDBOX_KIND" >"$OUT/isolation"

GRADING=$BUILD/grading
SLOTDIR=$GRADING/slot$SLOT
IN=$GRADING/slot$SLOT.in
# The submission as the grader copied it in (the only copy stages read).
COPY=$GRADING/slot$SLOT.submission
# Laid out as build/linux and build/obj are (the same relative paths in
# every compiler command), so a slot's first build can use the kit's
# compiler cache (below).
TREE=$SLOTDIR/linux
OBJ=$SLOTDIR/obj
# Not *.log: grade.sh clears those of an earlier grading in OUT.
APPLY_LOG=$OUT/apply.txt
rm -f "$OUT/submission.diff" "$OUT/changes.txt" "$OUT/checkpatch.txt" "$OUT/review.txt" "$OUT/rejected.txt"
: >"$APPLY_LOG"
mkdir -p "$GRADING"

# One grader a slot, for the whole grading: the lock goes with this process.
exec {lock}>"$GRADING/slot$SLOT.lock"
if ! flock -n "$lock"; then
	stage "slot $SLOT is in use by another grader: waiting for it"
	flock "$lock"
fi

# The slot's tree borrows the kernel tree's objects (read-only, in the
# sandbox: only git reads them there, never the build).
base=$(kit_git -C "$KSRC" rev-parse -q --verify 'base^{commit}') ||
	die "no kernel tree at $KSRC (run 'make setup')"
OBJECTS=$(realpath -e -- "$(kit_git -C "$KSRC" rev-parse --path-format=absolute --git-common-dir)/objects")
in_slot() { sandbox_run "$SLOTDIR" --ro "$OBJECTS" "$@"; }

# preprocess DIR [SOURCE...]: what the compiler read of objects of
# kernel/sched/ (their .i, made in the slot's sandbox) into DIR/NAME.i,
# without linemarkers and with every number 0 (a line added above a WARN
# changes the __LINE__ it expands to): without SOURCEs every object, else
# for each SOURCE one object whose Kbuild dependency list names it (a
# header's lines read the same in every object that includes it).  Each
# object's .i comes from the command Kbuild compiled it with (the first
# line of its .cmd), with -E for -c and no dependency file: the flags of
# make's own %.i rule, without a second walk of the tree (3-4 s).  What
# the compiler says goes nowhere (a submission's #warning is its text).
preprocess() {
	local dir=$1 o objs
	shift
	# shellcheck disable=SC2016
	mapfile -t objs < <(in_slot --stage read -- bash -c '
		cd "$1/kernel/sched" && shift || exit 0
		cmds=(.*.o.cmd)
		if [ $# = 0 ]; then
			printf "%s\n" "${cmds[@]}"
		else
			for s in "$@"; do
				for c in "${cmds[@]}"; do
					! grep -qF "$s" "$c" || { echo "$c"; break; }
				done
			done
		fi | sort -u | sed -E "s|^\.(.*)\.o\.cmd$|kernel/sched/\1|"' - "$OBJ" "$@")
	for o in "${objs[@]}"; do
		# shellcheck disable=SC2016
		sandbox_run "$SLOTDIR" --stage build --hide "$TREE/.git" -- bash -c '
			cd "$1" || exit 1
			o=$2 d=$(dirname "$2")/.$(basename "$2").o.d
			cmd=$(sed -n "1s|^cmd_$o\.o := ||p" "$(dirname "$o")/.$(basename "$o").o.cmd")
			[[ $cmd == *" -Wp,-MMD,$d "*" -c -o $o.o "* ]] || exit 1
			cmd=${cmd/" -Wp,-MMD,$d "/" "}
			exec sh -c "${cmd/" -c -o $o.o "/" -E -o - "}"' - "$OBJ" "$o" 2>/dev/null |
			grep -v '^# [0-9]' | sed -E 's/[0-9]+/0/g' >"$dir/${o##*/}.i"
		[ "${PIPESTATUS[0]}" = 0 ] || return 1
	done
}

# What the slot was made from, kept outside it (the sandbox can write the
# slot, never this): the kernel tree's base, the kit's starter, and who
# owns the slot's files (the sandbox's user; as root with SANDBOX=off, root).
state=$GRADING/slot$SLOT.state
owner=$([ "$(id -u)" != 0 ] || [ "$SANDBOX_KIND" = off ] && id -u || echo "$SANDBOX_UID")
was=()
[ ! -f "$state" ] || mapfile -t was <"$state"
was_base=${was[0]:-} was_starter=${was[1]:-} was_owner=${was[2]:-} fresh=
if [ ! -d "$TREE/.git" ] || [ "$was_base" != "$base" ]; then
	stage "making grading slot $SLOT"
	fresh=1
	rm -rf "$SLOTDIR" "$state" "$GRADING/slot$SLOT.starter-build"
	mkdir -p "$TREE" "$OBJ"
	kit_git init -q "$TREE"
	echo "$OBJECTS" >"$TREE/.git/objects/info/alternates"
	kit_git -C "$TREE" fetch -q --no-tags "$KSRC" "+refs/tags/base:refs/tags/base"
	sandbox_own "$SLOTDIR"
	was_starter='' was_owner=$owner
elif [ "$was_owner" != "$owner" ]; then
	stage "giving grading slot $SLOT to uid $owner"
	chown -R "$owner:$owner" "$SLOTDIR"
fi
[ "$SANDBOX_KIND" != uid ] || chmod 0700 "$SLOTDIR"
printf '%s\n' "$base" "$was_starter" "$owner" >"$state"
if [ "$was_starter" != "$(starter_stamp)" ]; then
	stage "slot $SLOT: the kit's starter"
	in_slot --stage apply -- "$KIT/grader/slot.sh" starter "$TREE" >>"$APPLY_LOG" 2>&1 ||
		die_log "$APPLY_LOG" "the kit's starter patches do not apply in slot $SLOT"
	printf '%s\n' "$base" "$(starter_stamp)" "$owner" >"$state"
fi
# (Bubblewrap hides the repository from the build; the uid isolation
# cannot, so there the last submission's objects go too.)
in_slot --stage apply -- "$KIT/grader/slot.sh" clean "$TREE" \
	$([ "$SANDBOX_KIND" != uid ] || echo --prune) >>"$APPLY_LOG" 2>&1 ||
	die_log "$APPLY_LOG" "grading slot $SLOT could not be made clean"

# Every submission is built on a copy of the starter's build, never on the
# previous submission's (whose objects and kernel hold that student's
# work).  The starter is built once in the slot and kept outside it,
# where no stage reaches (0700, the grader's); slot.sh clean gives the
# files the last submission changed back the starter's mtime, so only
# what this submission changes is compiled again.
KEPT=$GRADING/slot$SLOT.starter-build
kept_stamp=$(cat <(echo "$base" "$(starter_stamp)"; declare -f preprocess) "$KIT"/kconfig/*.config "$KIT/grader/build-kernel.sh" |
	md5sum | cut -d' ' -f1)
find "$SLOTDIR" -mindepth 1 -maxdepth 1 ! -name linux -exec rm -rf -- {} +
if [ "$(cat "$KEPT/stamp" 2>/dev/null)" != "$kept_stamp" ]; then
	stage "slot $SLOT: building the starter once (each submission is built on a copy of it)"
	rm -rf "$KEPT"
	mkdir -p "$OBJ"
	# A slot made just now holds the kit's starter and nothing of any
	# submission: its build is the kit's own, through the kit's compiler
	# cache (no stage of a submission ever sees that cache), with the
	# sandbox's environment and limits but not the sandbox.
	kind=$SANDBOX_KIND
	[ -z "$fresh" ] || [ -z "${CCACHE_DIR:-}" ] || kind=off
	sandbox_own "$OBJ"
	SANDBOX_KIND=$kind sandbox_run "$SLOTDIR" --stage build --rw "$OBJ" --hide "$TREE/.git" -- \
		"$KIT/grader/build-kernel.sh" "$TREE" "$OBJ" >"$GRADING/slot$SLOT.starter-build.log" 2>&1 ||
		die_log "$GRADING/slot$SLOT.starter-build.log" "the kit's starter does not build in grading slot $SLOT"
	[ "$kind" = "$SANDBOX_KIND" ] || sandbox_own "$OBJ"
	mkdir -m 0700 "$KEPT"
	mkdir "$KEPT/preprocessed"
	preprocess "$KEPT/preprocessed" ||
		die "the kit's starter could not be preprocessed in grading slot $SLOT"
	cp -a -- "$OBJ" "$KEPT/obj"
	echo "$kept_stamp" >"$KEPT/stamp"
else
	cp -a -- "$KEPT/obj" "$OBJ"
	sandbox_own "$OBJ"
fi

grade() {
	"$KIT/grader/grade.sh" --out "$OUT" --labs "$LABS" --title "$NAME" --isolation "$OUT/isolation" \
		--changes "$OUT/changes.txt" \
		${TEST:+--test "$TEST"} ${SEED:+--seed "$SEED"} ${ARTIFACTS:+--artifacts "$ARTIFACTS"} "$@"
}
# verdict V DETAIL [LOG]: every lab scores 0, for a reason found before boot.
verdict() {
	local status=0
	grade --verdict "$1" --detail "$2" ${3:+--log "$3"} || status=$?
	exit $status
}
# refused STATUS: the apply step's verdict, or the grader's own failure.
refused() {
	case $1 in
	3) verdict no-apply "$NAME: $(sed -n 's/^refused: //p' "$APPLY_LOG" | tail -n 1)" "$APPLY_LOG" ;;
	124) verdict no-apply "$NAME: applying it took longer than the limit" "$APPLY_LOG" ;;
	*) die_log "$APPLY_LOG" "the grader could not apply $NAME" ;;
	esac
}

# The submission, copied in once as data: regular files and folders only.
# A symbolic link (at any depth, the submission itself included), a
# device, a FIFO, a socket or a hard-linked file is refused and never
# followed; a submission the grader cannot read is the grader's fault.
# (A repository's objects may be hard links: git clone --local makes them.)
# A repository is read for its history only: its .git folder is what is
# copied (a kernel's checked-out files, links among them, are not read).
objects=/nonexistent
if [ "$KIND" = repo ]; then
	[ ! -d "$SUB/.git" ] || [ -L "$SUB/.git" ] || SUB=$SUB/.git
	objects=$SUB/objects
fi
err=$(find "$SUB" \( -type l -o \( ! -type f ! -type d \) -o \
	\( -type f -links +1 ! -path "$objects/*" \) \) -print -quit 2>&1 >"$OUT/odd.txt") ||
	die "the grader cannot read the submission $SUB: $err"
odd=$(head -c 4096 "$OUT/odd.txt")
rm -f "$OUT/odd.txt"
if [ -n "$odd" ]; then
	what="a $(stat -c %F -- "$odd" 2>/dev/null || echo "file of an odd kind")"
	[ -L "$odd" ] || [ ! -f "$odd" ] || what="a hard-linked file"
	verdict rejected "$NAME: $(printf '%q' "${odd#"$(dirname -- "$SUB")"/}") is $what: a submission holds regular files and folders only (never followed)"
fi
max=$([ "$KIND" = repo ] && echo "$REPO_MAX" || echo "$SUBMISSION_MAX")
size=$(du -sb --apparent-size -- "$SUB" | head -n 1 | cut -f 1)
[ "$size" -le "$max" ] ||
	verdict rejected "$NAME is $size bytes, more than the $max a $([ "$KIND" = repo ] && echo repository || echo submission) may be"
rm -rf "$COPY"
mkdir -p "$COPY"
cp -R --no-preserve=ownership -- "$SUB" "$COPY/" ||
	die "the grader could not copy the submission $SUB"
SUB=$COPY/$(basename -- "$SUB")
sandbox_own "$COPY"

stage "applying $NAME ($KIND)"
status=0
if [ $KIND = repo ]; then
	# Bundled where nothing of the grader's is in reach, not even the slot.
	rm -rf "$IN"
	mkdir -p "$IN"
	sandbox_own "$IN"
	sandbox_run "$IN" --stage apply --ro "$SUB" -- \
		"$KIT/grader/slot.sh" bundle "$SUB" "$BRANCH" "$IN/submission.bundle" >>"$APPLY_LOG" 2>&1 ||
		status=$?
	[ $status = 0 ] || refused $status
	in_slot --stage apply --ro "$IN" -- \
		"$KIT/grader/slot.sh" apply "$TREE" "$IN/submission.bundle" bundle "$BRANCH" >>"$APPLY_LOG" 2>&1 ||
		status=$?
else
	in_slot --stage apply --ro "$SUB" -- \
		"$KIT/grader/slot.sh" apply "$TREE" "$SUB" "$KIND" "$BRANCH" >>"$APPLY_LOG" 2>&1 ||
		status=$?
fi
[ $status = 0 ] || refused $status

# Allowed changes, decided here from what git records: each path one some
# lab allows (lab.conf ALLOWED), a plain file (mode 100644: no symbolic
# link, no executable), text without a NUL byte.
allowed=()
for lab in $(all_labs); do
	for a in $(lab_conf "$lab" ALLOWED); do allowed+=("$a"); done
done
in_slot -- "$KIT/grader/slot.sh" changes "$TREE" >"$OUT/changes.raw" ||
	die "the grader could not list the changes of $NAME"
: >"$OUT/rejected.txt"
changed_paths=()
while IFS= read -r -d '' meta && IFS= read -r -d '' path; do
	read -r mode _ nul <<<"$meta"
	changed_paths+=("$path")
	ok=
	for a in "${allowed[@]}"; do
		# shellcheck disable=SC2053
		[[ $path == $a ]] && ok=1
	done
	shown=$(printf '%q' "$path")
	[ -n "$ok" ] || echo "$shown: changes a file no lab allows" >>"$OUT/rejected.txt"
	case $mode in
	100644) ;;
	000000) echo "$shown: deletes it" >>"$OUT/rejected.txt" ;;
	120000) echo "$shown: makes it a symbolic link" >>"$OUT/rejected.txt" ;;
	100755) echo "$shown: makes it executable" >>"$OUT/rejected.txt" ;;
	*) echo "$shown: gives it mode $mode (only 100644, a plain file, is allowed)" >>"$OUT/rejected.txt" ;;
	esac
	[ "$nul" = 0 ] || echo "$shown: holds a NUL byte (not text; a diff would hide it)" >>"$OUT/rejected.txt"
done <"$OUT/changes.raw"
rm -f "$OUT/changes.raw"
if [ -s "$OUT/rejected.txt" ]; then
	n=$(wc -l <"$OUT/rejected.txt")
	verdict rejected "$(head -n 1 "$OUT/rejected.txt")$([ "$n" = 1 ] || echo " (and $((n - 1)) more)"); not graded as is" \
		"$OUT/rejected.txt"
fi
rm -f "$OUT/rejected.txt"

# The change as text (always: --text), what an instructor reviews.
in_slot -- "$KIT/grader/slot.sh" diff "$TREE" "$SUBMISSION_MAX" >"$OUT/submission.diff" ||
	die "the grader could not write the diff of $NAME"
if [ "$(stat -c %s "$OUT/submission.diff")" -gt "$SUBMISSION_MAX" ]; then
	verdict rejected "the change is larger than $SUBMISSION_MAX bytes"
fi
chmod a+r "$OUT/submission.diff"
# The change map: the functions of 6.1 the change touches outside every
# lab's hollowed ones (sched_fork(), say), those it adds, the files whose
# top level it changes.  Shown in the report, results.json and the
# gradebook; not scored.
starters=()
for lab in $(all_labs); do starters+=("$(lab_dir "$lab")/starter.patch"); done
"$BUILD/grader/similarity" --changes "$OUT/submission.diff" "${starters[@]}" >"$OUT/changes.txt" ||
	die "the grader could not map the changes of $NAME"
# review-patterns without its comments, for grep -f.
review_patterns() { grep -vE '^(#|$)' "$KIT/grader/review-patterns"; }
# A review line as it is kept: one line of printable text, 200 columns.
review_clean() { tr '\t' ' ' | cut -c 1-200 | tr -c '[:print:]\n' '?'; }
# Each added line with its place (similarity --added: the diff's line,
# and the function it is in); the patterns see the line alone.
"$BUILD/grader/similarity" --added "$OUT/submission.diff" >"$OUT/review.added" ||
	die "the grader could not read the diff of $NAME"
cut -f 2- "$OUT/review.added" >"$OUT/review.lines"
{ grep -n -E -f <(review_patterns) "$OUT/review.lines" || true; } | head -n 200 |
	while IFS=: read -r n line; do
		printf '%s: %s\n' "$(sed -n "${n}p" "$OUT/review.added" | cut -f 1)" "$line"
	done | review_clean >"$OUT/review.txt"
rm -f "$OUT/review.added" "$OUT/review.lines"
[ -s "$OUT/review.txt" ] || rm -f "$OUT/review.txt"

# Style, reported and not scored.
if [ -s "$OUT/submission.diff" ]; then
	in_slot --stage check --ro "$OUT/submission.diff" -- \
		perl "$TREE/scripts/checkpatch.pl" --no-tree --no-signoff --terse --show-types \
		"$OUT/submission.diff" >"$OUT/checkpatch.txt" 2>&1 || true
else
	echo "total: 0 errors, 0 warnings, 0 lines checked (no changes)" >"$OUT/checkpatch.txt"
fi

status=0
grade --slot "$SLOTDIR" --src "$TREE" --obj "$OBJ" --style "$OUT/checkpatch.txt" \
	--similarity "$OUT/submission.diff" || status=$?
[ $status -le 1 ] || exit $status
# What the compiler read outside the tree and the build folder, however the
# source spelled it (a macro, a line split by a backslash, an -I added to a
# Makefile): Kbuild's dependency lists (.*.cmd) name every file each object
# read.  The compiler's own headers are expected; nothing else is.
# Read in the sandbox: the lists are the build's, so the submission's.
# shellcheck disable=SC2016
in_slot --stage read -- bash -c '
	cd "$2" || exit 0
	find . -name ".*.cmd" -exec grep -h -e "^  [^ \$]" -e "^source_" {} + 2>/dev/null |
		sed -E "s/^(source_[^ ]* := |  )//; s/ \\\\$//" | sort -u | xargs -r -d "\n" realpath -m -- |
		grep -v -e "^$(realpath -m "$1")/" -e "^$(realpath -m "$2")/" \
			-e "^$(realpath -m "$("${CROSS_COMPILE:-aarch64-linux-gnu-}gcc" -print-file-name=include)")/" |
		head -n 20' - "$TREE" "$OBJ" | sed 's/^/the build read a file outside the tree: /' |
	review_clean >>"$OUT/review.txt" || true
# What the compiler read of the change, its macros expanded (a call built
# by ## or hidden in a macro of the submission's): the preprocessed
# sources of the objects the change reaches, against the starter's,
# through the same patterns.
pre=$GRADING/slot$SLOT.preprocessed
rm -rf "$pre"
mkdir -p "$pre"
if [ ${#changed_paths[@]} -gt 0 ] &&
	preprocess "$pre" "${changed_paths[@]/#/$TREE/}"; then
	for i in "$pre"/*.i; do
		[ -f "$i" ] && [ -f "$KEPT/preprocessed/${i##*/}" ] || continue
		{ diff -- "$KEPT/preprocessed/${i##*/}" "$i" || true; } | sed -n 's/^> //p' |
			grep -E -f <(review_patterns) |
			head -n 20 | sed "s|^|the compiler read, in ${i##*/} (preprocessed, numbers as 0): |" || true
	done | review_clean >>"$OUT/review.txt" || true
fi
rm -rf "$pre"
[ -s "$OUT/review.txt" ] || rm -f "$OUT/review.txt"
if [ -f "$OUT/review.txt" ]; then
	echo
	echo "review: $(wc -l <"$OUT/review.txt") line(s) of the submission or its build that can only serve to attack the grader (not scored):"
	sed 's/^/  /' "$OUT/review.txt"
	stage "$NAME: flagged for review ($OUT/review.txt)"
fi
exit $status
