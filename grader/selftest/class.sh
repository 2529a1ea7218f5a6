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
class_pages_agree "class" "$SELF/class-out"
expect_labs "$SELF/class-out/starter" fail starter
expect_labs "$SELF/class-out/reference" pass reference
# What an instructor reviews: nothing of the reference's is flagged, and
# it changes no function of 6.1 outside the labs' (its helper and
# declarations are listed, not flagged).
st_check "review: nothing of the reference's is flagged ($SELF/class-out/reference/review.txt)" \
	[ ! -e "$SELF/class-out/reference/review.txt" ]
st_check "change map: the reference changes no function outside the labs'" json_true \
	'.extra_data.change_map.changed == [] and (.extra_data.change_map.added | length) > 0' \
	"$SELF/class-out/reference/results.json"

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
