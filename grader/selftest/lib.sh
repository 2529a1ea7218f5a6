# The one helper every self-test uses: a counted check, named when it fails.
# shellcheck shell=bash
#
#   st_ok NAME               a check that held
#   st_ko NAME               a check that did not (printed, and listed at the end)
#   st_check NAME CMD...     CMD must succeed
#   st_xfail NAME CMD...     CMD must fail (a check that is shown to be able to)
#   st_same NAME WANT GOT    the files WANT and GOT are the same (UPDATE=1
#                            rewrites WANT from GOT: review the diff)
#   st_summary               "N passed, M failed"; returns 1 if any failed
ST_PASS=${ST_PASS:-0} ST_FAIL=${ST_FAIL:-0}
ST_FAILED=()

st_ok() { ST_PASS=$((ST_PASS + 1)); [ -z "${ST_VERBOSE:-}" ] || echo "  ok    $*"; }
st_ko() { ST_FAIL=$((ST_FAIL + 1)); ST_FAILED+=("$*"); echo "  FAIL  $*"; }
st_check() { local n=$1; shift; if "$@"; then st_ok "$n"; else st_ko "$n"; fi; }
st_xfail() {
	local n=$1; shift
	if "$@" 2>/dev/null; then st_ko "$n (expected to fail, passed)"; else st_ok "$n (fails, as expected)"; fi
}
st_same() {
	[ -z "${UPDATE:-}" ] || cp "$3" "$2"
	if diff -u "$2" "$3" >"$3.diff" 2>&1; then
		st_ok "$1"
	else
		st_ko "$1"
		sed 's/^/        /' "$3.diff"
	fi
}
st_summary() {
	echo
	if [ "$ST_FAIL" != 0 ]; then
		echo "failed checks:"
		printf '  %s\n' "${ST_FAILED[@]}"
	fi
	echo "$ST_PASS passed, $ST_FAIL failed"
	[ "$ST_FAIL" = 0 ]
}

# HANDOUT.md's samples of output: an indented block after a line
# "<!-- sample: NAME -->" (NAME a word), up to the next line that is not
# indented or blank.
# _st_norm: a sample's (less its block's indent) or a log's text, compared
# as a reader would: no trailing blanks, make's own lines as a make run from
# a shell says them (the Makefile's line numbers as "#"), the kit's folder dropped from paths,
# durations as "# s", a build's figures and progress lines as "#".
_st_norm() {
	sed -E -e 's/[[:space:]]+$//; s/^make\[[0-9]+\]:/make:/; s/\[Makefile:[0-9]+:/[Makefile:#:/' -e "s|$KIT/||g" \
		-e 's/[0-9]+ min [0-9]+ s/# s/g; s/[0-9]+(\.[0-9]+)? s\b/# s/g' \
		-e 's/(built in # s).*/\1/; s/^( +\[build-kernel\]) [0-9]+% .*/\1 #%/' "$@"
}
# st_sample NAME LOG [SED]: HANDOUT.md's sample NAME is LOG's output: each
# of its lines but "...", in order, is a line of LOG (after SED, a sed
# program for what the self-test did differently: its OUT folder).
st_sample() {
	local want got line i=0 w
	want=$(sed -n "/^<!-- sample: $1 -->\$/,/^[^ ]/p" "$KIT/HANDOUT.md" | sed '1d; $d' |
		grep -v -e '^ *\$ ' -e '^ *\.\.\.$' -e '^$' | sed 's/^    //' | _st_norm)
	got=$(sed -e "${3:-}" "$2" | _st_norm)
	[ -n "$want" ] || { st_ko "HANDOUT.md: no sample '$1'"; return; }
	# The sample's lines, found in order in the log.
	mapfile -t w <<<"$want"
	while IFS= read -r line; do
		[ "$i" -lt ${#w[@]} ] && [ "$line" = "${w[$i]}" ] && i=$((i + 1))
	done <<<"$got"
	st_check "HANDOUT.md: sample '$1' is the kit's output (first line not in $2: ${w[$i]:-none})" \
		[ "$i" = ${#w[@]} ]
}

# st_texts_real KIT [RESULTS]: every make command the kit's texts name
# (README.md, HANDOUT.md, the labs' READMEs: `make X` or an indented
# "make X" line) is one its Makefile runs there (not one that says "not in
# a course's kit", nor one it has no rule for); with RESULTS (a grading's
# results folder of that kit), every build/results/FILE they name (N: a
# number) is a file that grading wrote.
st_texts_real() {
	local kit=$1 results=${2:-} texts target path out
	texts=("$kit/README.md" "$kit/HANDOUT.md" "$kit"/labs/[0-9][0-9]-*/README.md)
	for target in $(grep -ohE '(`|^    )make [a-z][a-z-]*' "${texts[@]}" | sed 's/.*make //' | sort -u); do
		out=$(make -C "$kit" -n "$target" 2>&1)
		if grep -qE "not in a course's kit|No rule to make target" <<<"$out"; then
			st_ko "texts: 'make $target' is named in $(grep -lE "(\`|^    )make $target\b" "${texts[@]}" |
				sed "s|^$kit/||" | paste -sd' '), and this kit has no such command"
		else
			st_ok
		fi
	done
	[ -n "$results" ] || return 0
	for path in $(grep -ohE 'build/results/[A-Za-z0-9_.N*-]+' "${texts[@]}" | sed 's/\.$//' | sort -u); do
		if compgen -G "$results/$(sed 's/N/[0-9]*/g' <<<"${path#build/results/}")" >/dev/null; then
			st_ok
		else
			st_ko "texts: $path is named in $(grep -lF "$path" "${texts[@]}" | sed "s|^$kit/||" | paste -sd' '), and a grading writes no such file"
		fi
	done
}

# st_tree: the self-test's own kernel tree, ST_TREE=$SELF/tree/linux, at
# the kit's starter (tag starter) and nothing on it, with its build folder
# ST_OBJ=$SELF/tree/obj (laid out as build/linux and build/obj, so its
# first build finds the kit's objects in the compiler cache).  Made once
# a run (starter_tree), then only set back to the starter: the files
# changed since are written again, and its next build compiles only those.
st_tree() {
	ST_TREE=$SELF/tree/linux ST_OBJ=$SELF/tree/obj
	if [ -d "$ST_TREE/.git" ]; then
		kit_git -C "$ST_TREE" checkout -q -f --detach starter && kit_git -C "$ST_TREE" clean -q -ffd
	else
		mkdir -p "$SELF/tree" && starter_tree "$ST_TREE"
	fi
}
