# shellcheck shell=bash
# Part of make test (run.sh): known-wrong variants of the reference patches
# (mutants/NN-*): each must build, boot and cost its lab at least one test.
# A mutant's header (the text before its first "diff --git") says what it
# gets wrong and, on a line "Killed-by: NAME...", the tests that must fail
# on it (or "Killed-by: verdict:WORD" for a kernel splat); each must.  A
# line "Boot: shared" grades it with every lab, as make grade does (in the
# boot the labs share), rather than its lab alone.  A mutant one test is
# named to kill is graded first with that test alone (TEST=, a boot a
# second or more shorter), and with its whole lab if that test alone does
# not fail on it (a mutant's effect may need the tests before it, as
# 04-no-idle-reset's needs a CPU that held a clamp before going idle).
# Each mutant's similarity to 6.1 is printed: with the references', the
# range of the figure for work in the kernel's own idiom (grader/README.md).
# The mutants are the kit's own code, not a student's: each is applied on
# a tree of the starter with every reference committed, and graded there
# as a student grades a tree (grade.sh), so only the files it and the
# mutant before it change are compiled again; how a submission is graded
# is the other parts' to prove.  Two workers, a tree each (the
# self-test's, st_tree, and one more, laid out alike so the compiler
# cache serves its first build): while one worker's kernel boots, the
# other's builds at the lowest priority (nice 19, so a boot runs as on an
# idle machine), and only one boots at a time (flock; grade.sh --build no:
# Kbuild's walk of a built tree alone takes 6-11 s on a slow machine).
stage "mutants of the reference patches"
MT=$SELF/mutants
mkdir -p "$MT"
mutants=("$ST"/mutants/[0-9][0-9]-*.patch)
# header_of M: M's header; killers_of M: the tests (or verdict:WORD) it
# names to kill it; shared M: it is graded in the labs' shared boot.
header_of() { sed '/^diff --git/q' "$1"; }
killers_of() { header_of "$1" | sed -n 's/^Killed-by: *//p'; }
shared() { header_of "$1" | grep -qx 'Boot: shared'; }
# lab_of M: M's lab; labs_of M: the labs M is graded on.
lab_of() { basename "$1" | cut -c 1-2; }
labs_of() {
	if shared "$1"; then all_labs | paste -sd' '; else lab_of "$1"; fi
}
# test_of M: the one test named to kill M (none with a shared boot).
test_of() {
	local want
	want=$(killers_of "$1")
	if ! shared "$1" && [[ "$want" != *[\ :]* ]]; then echo "$want"; fi
}
# failed_in JSON TEST: in a lab's results.json (JSON, its text), TEST
# failed on a kernel that booted cleanly.
failed_in() {
	json_true --arg t "$2" \
		'.extra_data.labs[0].verdict == "ok" and any(.tests[]; .extra_data.test == $t and .status == "failed")' <<<"$1"
}
# worker TREE OBJ N: TREE (the self-test's, or made here; the references
# committed on the starter) grades every other mutant, from the Nth; each
# mutant's outcome in $MT/NAME/.
worker() {
	local tree=$1 obj=$2 i m out built one
	# grade_mutant ARG...: grade.sh on the tree, one boot at a time.
	grade_mutant() {
		flock "$MT/boot.lock" "$KIT/grader/grade.sh" --src "$tree" --obj "$obj" --out "$out" "$@" \
			--labs "$(labs_of "$m")" --title "$(basename "$m" .patch)" --similarity "$out.diff" >>"$out.log" 2>&1
	}
	{ { [ "$tree" = "$ST_TREE" ] || starter_tree "$tree"; } &&
		"$KIT/grader/apply.sh" --tree "$tree" --commit reference &&
		kit_git -C "$tree" tag -f references; } >>"$MT/tree-$3.log" 2>&1 || return 0
	for ((i = $3; i < ${#mutants[@]}; i += 2)); do
		m=${mutants[$i]}
		out=$MT/$(basename "$m" .patch)
		# Applied to the index too, and taken back the same way: git
		# reads only the files the mutant changes.
		kit_git -C "$tree" apply --index "$m" 2>"$out.log" || continue
		mkdir -p "$out"
		kit_git -C "$tree" diff --cached starter >"$out.diff"
		# (A mutant that does not build is built again by grade.sh, which
		# says so: no-build.)
		built=() one=$(test_of "$m")
		! nice -n 19 "$KIT/grader/build-kernel.sh" "$tree" "$obj" >>"$out.log" 2>&1 || built=(--build no)
		grade_mutant "${built[@]}" ${one:+--test "$one"}
		[ -z "$one" ] || failed_in "$(result_json "$out/lab$(lab_of "$m").result" 2>/dev/null)" "$one" ||
			grade_mutant --build no
		kit_git -C "$tree" apply --index -R "$m" 2>>"$out.log" ||
			kit_git -C "$tree" reset -q --hard references
	done
}
st_tree >"$MT/tree-0.log" 2>&1 || true
worker "$ST_TREE" "$ST_OBJ" 0 &
w0=$!
worker "$MT/tree/linux" "$MT/tree/obj" 1 &
w1=$!
wait "$w0" "$w1"
for w in 0 1; do
	[ -n "$(kit_git -C "$([ $w = 0 ] && echo "$ST_TREE" || echo "$MT/tree/linux")" tag -l references 2>/dev/null)" ] ||
		st_ko "mutants: worker $w has no tree of the references ($MT/tree-$w.log)"
done
killed=0 total=0
for m in "${mutants[@]}"; do
	[ -e "$m" ] || continue
	name=$(basename "$m" .patch)
	lab=$(lab_of "$m")
	out=$MT/$name
	total=$((total + 1))
	if [ ! -d "$out" ]; then
		st_ko "mutant $name was not graded: it does not apply on the references, or its worker had no tree ($out.log)"
		continue
	fi
	json=$(result_json "$out/lab$lab.result" 2>/dev/null)
	verdict=$(jq -r '.extra_data.labs[0].verdict' <<<"$json" 2>/dev/null)
	lost=$(jq '[.tests[] | select(.status == "failed")] | length' <<<"$json" 2>/dev/null)
	lost=${lost:-0}
	# Killed: the mutant built and booted, and its lab lost points (to
	# its tests, or to the kernel splat the mistake caused).
	case $verdict in no-apply | no-build | rejected | "") lost=0 ;; esac
	want=$(killers_of "$m")
	[ -n "$want" ] || st_ko "mutant $name: its header names no test (Killed-by:)"
	missed=
	for t in $want; do
		case $t in
		verdict:*) [ "$verdict" = "${t#verdict:}" ] || missed="$missed $t" ;;
		*) failed_in "$json" "$t" || missed="$missed $t" ;;
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
