# shellcheck shell=bash
# Part of make test (run.sh): batch grading under concurrency, interruption,
# kit changes and odd names, on lab 1.  Two graders started at once on one
# slot (both grades right); a class with a name starting with "-", one with
# a newline, two entries that make one name (refused), and a long mbox
# series, killed while "git am" applies it, then resumed (every grade
# right); run again (nothing regraded); the kit changed (everyone regraded).
. "$ST/submissions.sh"

stage "two graders at once on one slot (lab 1)"
B=$SELF/batch
rm -rf "$B" "$SELF/batch-out"
mkdir -p "$B"
: >"$B/empty.patch"
# lab1_right RESULT full|zero WHAT: a clean run with every test passing
# (full) or failing (zero).
lab1_right() {
	if [ -f "$1" ]; then
		expect_tests "$1" "$([ "$2" = full ] && echo pass || echo fail)" "$3"
	else
		st_ko "$3: no result ($1)"
	fi
}
for who in reference starter; do
	sub=$B/empty.patch
	[ $who = starter ] || sub=$(sub_reference 1)
	"$KIT/grader/grade-submission.sh" --submission "$sub" --out "$SELF/batch-out/$who" \
		--labs 01 --slot 0 >"$SELF/batch-$who.log" 2>&1 &
done
wait
lab1_right "$SELF/batch-out/reference/lab01.result" full "reference, graded beside the starter"
lab1_right "$SELF/batch-out/starter/lab01.result" zero "starter, graded beside the reference"
if grep -q 'waiting' "$SELF"/batch-reference.log "$SELF"/batch-starter.log; then st_ok; else
	st_ko "neither grader waited for the other's slot"
fi

stage "a class with odd names, killed in git am and resumed; then a kit change"
C=$B/class
mkdir -p "$C"
cp "$(sub_reference 1)" "$C/-alice.patch"
: >"$C/bob"$'\n'"mallory.patch"
: >"$C/carol.patch"
cp "$(sub_reference 1)" "$C/carol.diff"
: >"$C/dave.patch"
# A series of 100 commits (a comment line each), then lab 1's reference.
f=$SELF/batch.deadline.c
sub_blob kernel/sched/deadline.c >"$f"
c=$SUB_STARTER
lab1=$(sub_lab1_reference)
export GIT_INDEX_FILE=$SELF/batch.index
sgit read-tree "$c"
for i in $(seq 1 101); do
	if [ "$i" = 101 ]; then
		{ sgit show "$lab1:kernel/sched/deadline.c"; seq -f '/* step %g */' 1 100; } \
			>"$f.new" && mv "$f.new" "$f"
	else
		echo "/* step $i */" >>"$f"
	fi
	sgit update-index --cacheinfo "100644,$(sgit hash-object -w "$f"),kernel/sched/deadline.c"
	c=$(sgit commit-tree -p "$c" -m "step $i" "$(sgit write-tree)")
done
unset GIT_INDEX_FILE
rm -f "$SELF/batch.index"
kit_git --git-dir="$SUB_GIT" format-patch --stdout "$SUB_STARTER..$c" >"$C/zed-series.mbox"
class() { BOOT_TIMEOUT=60 "$KIT/grader/grade-all.sh" --submissions "$C" --out "$SELF/batch-out/class" --labs 01 -j 1; }
# class_right: every student's grade right, and the gradebook has each once.
class_right() {
	local d=$SELF/batch-out/class
	lab1_right "$d/-alice/lab01.result" full "-alice ($1)"
	lab1_right "$d/bob%0Amallory/lab01.result" zero "bob<newline>mallory ($1)"
	lab1_right "$d/dave/lab01.result" zero "dave ($1)"
	lab1_right "$d/zed-series/lab01.result" full "zed-series ($1)"
	if [ ! -e "$d/carol" ] && grep -q 'carol.diff: 2 submissions are student carol' "$d/grader-errors.txt"; then
		st_ok
	else
		st_ko "carol.patch and carol.diff: not refused as one name ($1)"
	fi
	if [ "$(printf '%s' "$(cat "$d/bob%0Amallory/name" 2>/dev/null)")" = "bob"$'\n'"mallory" ]; then st_ok; else
		st_ko "bob<newline>mallory: its folder does not keep its name ($1)"
	fi
}
# The batch, killed (with everything it started) once git am is under way
# in the slot; a stale index.lock on top.
slot=$BUILD/grading/slot0/linux/.git
(setsid bash -c "$(declare -f class); KIT='$KIT' SELF='$SELF' C='$C'; class" >"$SELF/batch-killed.log" 2>&1 &
	echo $! >"$B/pid")
pid=$(cat "$B/pid")
for _ in $(seq 1 6000); do
	[ -d "$slot/rebase-apply" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
if [ -d "$slot/rebase-apply" ]; then
	kill -KILL -- "-$pid" 2>/dev/null
	sleep 1
	touch "$slot/index.lock"
	st_ok "killed in git am"
else
	st_ko "the batch was never seen in git am (log: $SELF/batch-killed.log)"
	kill -KILL -- "-$pid" 2>/dev/null
fi
class >"$SELF/batch-resumed.log" 2>&1
[ $? = 1 ] && st_ok || st_ko "a batch with a refused submission did not exit 1"
class_right "resumed after a kill in git am"
if [ "$(grep -c 'already graded' "$SELF/batch-resumed.log")" -ge 1 ]; then st_ok; else
	st_ko "the resumed batch graded again what was graded before the kill"
fi
class >"$SELF/batch-again.log" 2>&1
n=$(grep -c 'already graded' "$SELF/batch-again.log")
if [ "$n" = 4 ]; then st_ok; else st_ko "a batch run again regraded: $n of 4 were skipped"; fi
# A kit change: a new file in labs/ (it could be a test); everyone regraded.
touch "$KIT/labs/.selftest-kit-change"
class >"$SELF/batch-kit.log" 2>&1
rm -f "$KIT/labs/.selftest-kit-change"
n=$(grep -c 'already graded' "$SELF/batch-kit.log")
if [ "$n" = 0 ]; then st_ok; else st_ko "after a kit change $n of 4 students were not regraded"; fi
class_right "after a kit change"

stage "a grader failure in a batch: its reason shown, its log kept"
# No initramfs to boot: the fault of this machine, after the build.
rm -rf "$SELF/batch-out/broken" "$B/broken"
mkdir -p "$B/broken"
: >"$B/broken/dave.patch"
INITRAMFS=$SELF/batch-no-initramfs.cpio "$KIT/grader/grade-all.sh" --submissions "$B/broken" \
	--out "$SELF/batch-out/broken" --labs 01 -j 1 >"$SELF/batch-broken.log" 2>&1
line=$(grep '^dave.patch: ' "$SELF/batch-out/broken/grader-errors.txt" 2>/dev/null)
if [[ $line == *"the grader failed, nothing graded: "*batch-no-initramfs.cpio*"(see $SELF/batch-out/broken/dave/stages.log)" ]] &&
	grep -q 'batch-no-initramfs.cpio' "$SELF/batch-out/broken/dave/stages.log"; then
	st_ok
else
	st_ko "a grader failure in a batch: reason or log lost: '$line' (log: $SELF/batch-broken.log)"
fi
