# shellcheck shell=bash
# Part of make test (run.sh): known-wrong variants of the reference patches
# (mutants/NN-*): each must build, boot and cost its lab at least one test.
# A mutant's header (the text before its first "diff --git") says what it
# gets wrong and, on a line "Killed-by: NAME...", the tests that must fail
# on it (or "Killed-by: verdict:WORD" for a kernel splat); each must.  A
# line "Boot: shared" grades it with every lab, as make grade does (in the
# boot the labs share), rather than its lab alone.
# Each mutant's similarity to 6.1 is printed: with the references', the
# range of the figure for work in the kernel's own idiom (grader/README.md).
# The mutants are the kit's own code, not a student's: each is applied on
# the self-test's tree (st_tree) with every reference committed, and
# graded there as a student grades a tree (grade.sh), so only the files
# it and the mutant before it change are compiled again; how a submission
# is graded is the other parts' to prove.
stage "mutants of the reference patches"
MT=$SELF/mutants
mkdir -p "$MT"
{ st_tree && "$KIT/grader/apply.sh" --tree "$ST_TREE" --commit reference; } >"$MT/tree.log" 2>&1 ||
	st_ko "mutants: no tree of the references ($MT/tree.log)"
kit_git -C "$ST_TREE" tag -f references >/dev/null
killed=0 total=0
for m in "$ST"/mutants/[0-9][0-9]-*.patch; do
	[ -e "$m" ] || continue
	name=$(basename "$m" .patch)
	lab=${name%%-*}
	out=$MT/$name
	header=$(sed '/^diff --git/q' "$m")
	labs=$lab
	! grep -qx 'Boot: shared' <<<"$header" || labs=$(all_labs | paste -sd' ')
	total=$((total + 1))
	# Applied to the index too, and taken back the same way: git reads
	# only the files the mutant changes (a whole tree's status costs
	# seconds).
	if ! kit_git -C "$ST_TREE" apply --index "$m" 2>"$out.log"; then
		st_ko "mutant $name does not apply on the references ($out.log)"
		continue
	fi
	mkdir -p "$out"
	kit_git -C "$ST_TREE" diff --cached starter >"$out.diff"
	"$KIT/grader/grade.sh" --src "$ST_TREE" --obj "$ST_OBJ" --out "$out" --labs "$labs" \
		--title "$name" --similarity "$out.diff" >"$out.log" 2>&1
	kit_git -C "$ST_TREE" apply --index -R "$m" 2>>"$out.log" ||
		kit_git -C "$ST_TREE" reset -q --hard references
	json=$(result_json "$out/lab$lab.result" 2>/dev/null)
	verdict=$(jq -r '.extra_data.labs[0].verdict' <<<"$json" 2>/dev/null)
	lost=$(jq '[.tests[] | select(.status == "failed")] | length' <<<"$json" 2>/dev/null)
	lost=${lost:-0}
	# Killed: the mutant built and booted, and its lab lost points (to
	# its tests, or to the kernel splat the mistake caused).
	case $verdict in no-apply | no-build | rejected | "") lost=0 ;; esac
	want=$(sed -n 's/^Killed-by: *//p' <<<"$header")
	[ -n "$want" ] || st_ko "mutant $name: its header names no test (Killed-by:)"
	missed=
	for t in $want; do
		case $t in
		verdict:*) [ "$verdict" = "${t#verdict:}" ] || missed="$missed $t" ;;
		*) [ "$verdict" = ok ] && jq -e --arg t "$t" \
			'any(.tests[]; .extra_data.test == $t and .status == "failed")' <<<"$json" >/dev/null ||
			missed="$missed $t" ;;
		esac
	done
	if [ "$lost" -gt 0 ] && [ -z "$missed" ]; then
		killed=$((killed + 1))
		st_ok "mutant $name"
		echo "  killed    $name by $want ($lost test(s) failed, verdict $verdict; $(jq -r \
			'.extra_data.labs[0].similarity | "similarity to 6.1 \(.percent // "-")%, \(.matched) of \(.counted) lines"' \
			<<<"$json"))"
	elif [ "$lost" -gt 0 ]; then
		st_ko "mutant $name: killed, but not by$missed (verdict $verdict)"
	else
		st_ko "mutant $name survived (verdict ${verdict:-none}, $lost failing tests)"
	fi
done
echo "  mutants killed: $killed/$total"
