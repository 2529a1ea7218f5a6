# shellcheck shell=bash
# Part of make test (run.sh): the starter tree, graded as a student grades
# their tree (make grade, no submission): every lab test must fail, on a
# clean run.  The student's tree itself while it is the starter (no commit
# and no change since: its build is reused); otherwise a copy of the
# starter beside it, $BUILD/starter-check, built once.  The only grading
# part of a course's kit (it has no solutions to grade).

stage "the starter tree, graded: every lab scores 0"
if [ "$(git -C "$KSRC" rev-parse HEAD)" = "$(git -C "$KSRC" rev-parse 'starter^{commit}')" ] &&
	[ -z "$(git -C "$KSRC" status --porcelain)" ]; then
	src=$KSRC obj=${OBJ:-$BUILD/obj}
else
	src=$BUILD/starter-check/linux obj=$BUILD/starter-check/obj
	stage "your tree is not the starter any more: grading a copy of the starter ($src)"
	[ -e "$src/.git" ] || git clone -q --shared --no-checkout "$KSRC" "$src"
	git -C "$src" fetch -q --tags --force "$KSRC"
	git -C "$src" checkout -q -f --detach starter
fi
"$KIT/grader/grade.sh" --src "$src" --obj "$obj" --out "$SELF/starter" >"$SELF/starter.log" 2>&1
status=$?
st_check "starter: graded (exit status $status, 1: tests failed; see $SELF/starter.log)" [ "$status" = 1 ]
expect_labs "$SELF/starter" fail starter
