# shellcheck shell=bash
# Part of make test (run.sh): a batch of sample submissions made here,
# graded by grade-all.sh as an instructor would: the starter (every lab
# test must fail, on a clean run) and the reference (every test must
# pass), on every lab; lab 3's timeline shows the move.

stage "the starter and the reference, as submissions, on every lab"
mkdir -p "$SELF/class/reference"
: >"$SELF/class/starter.patch"
cp "$KIT"/reference-patches/*.patch "$SELF/class/reference/"
"$KIT/grader/grade-all.sh" --submissions "$SELF/class" --out "$SELF/class-out" -j 1 \
	>"$SELF/class.log" 2>&1
sed 's/^/  /' "$SELF/class-out/gradebook.csv"
for lab in $(all_labs); do
	for who in starter reference; do
		r=$SELF/class-out/$who/lab$lab.result
		if [ ! -f "$r" ]; then st_ko "lab $lab: no result for the $who"; continue; fi
		if [ $who = starter ]; then
			expect_tests "$r" fail "starter"
		else
			expect_tests "$r" pass "reference"
		fi
	done
done

stage "timeline: lab 3's busy task, from a little CPU's lane to a big one's"
for who in reference starter; do
	svg=$SELF/class-out/$who/lab03.test_busy_task_moves_at_first_throttle.svg
	if [ ! -f "$svg" ]; then st_ko "timeline: no SVG for lab 3 on the $who"; continue; fi
	if svg_moves_little_to_big "$svg" "$(svg_first_pid "$svg")" 2>"$SELF/timeline-$who.log"; then
		moved=yes
	else
		moved=no
	fi
	want=$([ $who = reference ] && echo yes || echo no)
	if [ $moved = "$want" ]; then st_ok; else
		st_ko "timeline: on the $who the task's lane change is '$moved', expected '$want' ($svg)"
	fi
done
echo "  reference: $SELF/class-out/reference/lab03.test_busy_task_moves_at_first_throttle.svg"
