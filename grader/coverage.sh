#!/bin/bash
# make coverage: which lines the reference patches add that no public test
# executes.  A guide for whoever writes tests, not part of grading.
#
#   coverage.sh [LAB...]   (default: every lab)
#
# A tree of its own ($BUILD/coverage/linux, sharing the kernel tree's
# objects): the starter, then every lab's reference, one commit each, and
# "GCOV_PROFILE := y" added to kernel/sched/Makefile (uncommitted: only
# that folder is profiled).  It is built with kconfig/coverage/gcov.config
# merged on grading's config, then for each lab make shell's boot of that
# lab's machine (explore.sh) runs the lab's suite, /tests/labNN, as a
# student would by hand, and prints the guest's gcov counters
# (/sys/kernel/debug/gcov) in base64.  The host decodes them beside the
# objects' .gcno files and asks gcov (the cross compiler's) for every
# line's count as JSON; a line executed in any lab's boot is executed.
#
# Output ($BUILD/coverage/): unexecuted.txt, each added line gcov counts
# as code that ran in no boot ("FILE:LINE: text"), and the figures on
# standard output.  Lines gcov does not count (declarations, braces,
# comments) are neither.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=coverage

C=$BUILD/coverage
T=$C/linux
O=$C/obj
GCOV=aarch64-linux-gnu-gcov
mkdir -p "$C"
command -v "$GCOV" >/dev/null || die "no $GCOV (Debian's gcc-aarch64-linux-gnu has it)"

# The tree: made again when the kit's patches change.
stamp=$(cat <(starter_stamp) "$KIT"/reference-patches/*.patch | md5sum | cut -d' ' -f1)
if [ "$(cat "$C/tree.stamp" 2>/dev/null)" != "$stamp" ]; then
	stage "the starter and the references, with gcov for kernel/sched/ ($T)"
	rm -f "$C/tree.stamp"
	reference_tree "$T"
	echo "GCOV_PROFILE := y" >>"$T/kernel/sched/Makefile"
	echo "$stamp" >"$C/tree.stamp"
fi

make -s -C "$KIT" "$BUILD/initramfs-shell.cpio" "$BUILD/grader/small-pages" >"$C/make.log" 2>&1 ||
	die_log "$C/make.log" "make shell's initramfs could not be made"
rm -rf "$C/gcda"
labs=()
for lab in ${*:-$(all_labs)}; do
	labs+=("$(printf %02d "$((10#$lab))")")
done
for lab in "${labs[@]}"; do
	out=$C/lab$lab.out
	stage "lab $lab: its suite on the reference, then the counters"
	# shellcheck disable=SC2016
	printf '%s\n' "/tests/lab$lab >/tmp/suite.log 2>&1; grep -E '^[0-9]+%: Checks: ' /tmp/suite.log | tail -n 1" \
		'cd /sys/kernel/debug/gcov && for f in $(find . -name "*.gcda"); do echo "GCDA $f"; base64 "$f"; done; echo GCDA-END' |
		KSRC=$T OBJ=$O SHELL_CONFIG=$KIT/kconfig/coverage/gcov.config \
			"$KIT/grader/explore.sh" shell "$lab" >"$out" 2>&1 ||
		die_log "$out" "lab $lab's boot did not end well"
	grep -q '^GCDA-END' "$out" || die_log "$out" "lab $lab's boot printed no counters"
	grep -E '^[0-9]+%: Checks: ' "$out" | sed "s/^/  lab $lab: /" || true
	# The counters, one folder a lab, named as the objects are.
	dir=$C/gcda/$lab
	f=
	while IFS= read -r line; do
		case $line in
		"GCDA-END") break ;;
		"GCDA "*)
			f=$dir/$(basename -- "${line#GCDA }")
			mkdir -p "$dir"
			: >"$f.b64"
			;;
		*) [ -z "$f" ] || printf '%s\n' "$line" >>"$f.b64" ;;
		esac
	done < <(sed -n '/^GCDA /,/^GCDA-END/p' "$out")
	for b in "$dir"/*.b64; do
		base64 -d "$b" >"${b%.b64}" || die "lab $lab: ${b##*/} does not decode"
		rm -f "$b"
	done
	# gcov reads NAME.gcda beside NAME.gcno: a copy of the objects' notes.
	cp "$O"/kernel/sched/*.gcno "$dir/"
	(cd "$dir" && for g in *.gcda; do
		"$GCOV" --json-format --stdout -o . "${g%.gcda}.gcno" 2>/dev/null
	done) >"$dir/lines.json"
done

# The lines the references add to kernel/sched/, as "FILE LINE" (git's
# hunks: without context, a hunk's new lines are its +START,COUNT).
kit_git -C "$T" diff -U0 starter HEAD -- kernel/sched | sed -nE '
	s|^\+\+\+ b/(.*)|F \1|p
	s|^@@ [^+]*\+([0-9]+)(,([0-9]+))? @@.*|H \1 \3|p' |
	while read -r kind a b; do
		if [ "$kind" = F ]; then file=$a; continue; fi
		for ((i = a; i < a + ${b:-1}; i++)); do echo "$file $i"; done
	done >"$C/added.txt"

# Each added line gcov counts, with its count summed over the labs' boots.
jq -n -r --rawfile added "$C/added.txt" '
	($added | split("\n") | map(select(. != "")) | map({key: ., value: true}) | from_entries) as $want |
	[inputs | .files[] | (.file | sub(".*/(?<p>kernel/sched/)"; "\(.p)")) as $f | .lines[] |
	 select($want["\($f) \(.line_number)"]) | {f: $f, l: .line_number, c: .count}] |
	group_by([.f, .l]) | map({f: .[0].f, l: .[0].l, c: (map(.c) | add)})[] |
	"\(.f) \(.l) \(.c)"' "$C"/gcda/*/lines.json >"$C/counted.txt"

n_added=$(wc -l <"$C/added.txt")
n_counted=$(wc -l <"$C/counted.txt")
: >"$C/unexecuted.txt"
while read -r f l c; do
	[ "$c" = 0 ] || continue
	printf '%s:%s: %s\n' "$f" "$l" "$(sed -n "${l}p" "$T/$f" | sed 's/^[[:space:]]*//')" >>"$C/unexecuted.txt"
done <"$C/counted.txt"
n_un=$(wc -l <"$C/unexecuted.txt")
echo "make coverage: the references add $n_added lines to kernel/sched/; gcov counts $n_counted of them as code,"
echo "$((n_counted - n_un)) ran in the suites of labs ${labs[*]}, $n_un never ran ($C/unexecuted.txt):"
sed 's/^/  /' "$C/unexecuted.txt"
