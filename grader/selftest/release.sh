# shellcheck shell=bash
# Part of make test (run.sh): make release, and the course's kit it makes,
# used as a student uses it and graded as an instructor grades:
#   - no file of the instructor's is in it (reference solutions, the labs'
#     patches, mutants, survivors, broken and hidden submissions), by name or content;
#   - its make grade (setup, its own tree, its own kernel build) scores 0 on
#     every lab and prints nothing about "pristine"; its make test passes
#     and says what it cannot check;
#   - its tree's history is one commit, tag starter, the instructor's
#     starter tree, before the student's own commits;
#   - a student's commit there that copies 6.1's code back (every starter
#     patch reversed), handed in as a bundle, and the reference patches are
#     graded as a class: the similarity to 6.1 is beside each lab's score
#     in the gradebook and hidden from students in results.json, near 100%
#     for the copy on labs 1, 4, 5 and 6; the references' is printed.
# The release's kernel is another tree at another path, so it is built
# from scratch, through ccache ($BUILD/ccache, kept between runs).  And
# first, the functions each lab's starter hollows out, as the similarity
# finds them in its patch (release-hollowed.txt; UPDATE=1 rewrites it).

stage "make release: a course's kit, used as a student and graded as an instructor"
R=$SELF/release
KR=$R/kit
T=$KR/build/linux
mkdir -p "$R/class/reference"
t0=$(date +%s)
for d in "$KIT"/labs/[0-9][0-9]-*/; do
	"$TOOLS/similarity" --functions "$d/starter.patch" | sed "s|^|$(basename "$d") |"
done >"$R/hollowed.txt"
st_same "release: the functions the starters hollow out" "$ST/release-hollowed.txt" "$R/hollowed.txt"
# kit_make ARGS: make in the course's kit, in a student's environment (none
# of this kit's settings; the compiler cache aside).
kit_make() {
	env -i PATH="$PATH" HOME="${HOME:-/}" CCACHE_DIR="$BUILD/ccache" make -C "$KR" "$@"
}

make -s -C "$KIT" release OUT="$KR" >"$R/release.log" 2>&1
st_check "release: make release (see $R/release.log)" [ -s "$KR/starter/tree" ]
(cd "$KR" && find . -type f -exec md5sum {} +) >"$R/files.md5"
for f in "$KIT"/reference-patches/* "$KIT"/labs/*/*.patch "$ST"/mutants/* "$ST"/survivors/* "$ST"/broken/* \
	$(find "$ST/hidden" -type f); do
	rel=${f#"$KIT"/}
	if [ -e "$KR/$rel" ] || grep -q "^$(md5sum <"$f" | cut -d' ' -f1) " "$R/files.md5"; then
		st_ko "release: $rel is in the course's kit"
	else
		st_ok
	fi
done
st_check "release: no patch in the course's kit but the toy ones of the unit tests" \
	[ -z "$(find "$KR" \( -name '*.patch' -o -name '*.diff' \) ! -path '*/selftest/similarity/*')" ]

# The student's side: the arm64 userland is this kit's (not fetched again).
mkdir -p "$KR/build"
ln -s "$BUILD/sysroot" "$KR/build/sysroot"
kit_make grade >"$R/grade.log" 2>&1
st_check "release: make grade in the course's kit exits 2, tests failed (see $R/grade.log)" [ $? = 2 ]
expect_labs "$KR/build/results" fail "course kit's starter"
st_xfail "release: nothing make grade printed there says pristine" grep -qi pristine "$R/grade.log"
# What HANDOUT.md shows of a first make grade (the course's kit ships it).
st_sample cold-build "$R/grade.log" "s|$KR/||g"
st_sample grade "$R/grade.log" "s|$KR/||g"
# Every command its texts name is one it has; every results file, one it wrote.
st_texts_real "$KR" "$KR/build/results"
st_check "release: its tree's history is one commit" [ "$(git -C "$T" rev-list --count --all)" = 1 ]
st_check "release: its tree's one tag is starter, at HEAD" \
	[ "$(git -C "$T" tag) $(git -C "$T" rev-parse HEAD)" = "starter $(git -C "$T" rev-parse 'starter^{commit}')" ]
st_check "release: its starter tree is the instructor's" \
	[ "$(git -C "$T" rev-parse 'starter^{tree}')" = "$(cat "$KR/starter/tree")" ]
kit_make test >"$R/test.log" 2>&1
st_check "release: make test in the course's kit passes (see $R/test.log)" [ $? = 0 ]
st_check "release: and says it cannot check the solutions" grep -q "cannot check the labs' solutions" "$R/test.log"
t1=$(date +%s)

# A student who copies 6.1's code back: every starter patch reversed, the
# last lab's first, committed and handed in as a bundle.
for d in $(printf "%s\n" "$KIT"/labs/[0-9][0-9]-*/ | sort -r); do
	git -C "$T" apply -R "$d/starter.patch" || st_ko "release: $d/starter.patch does not reverse"
done
kit_git -C "$T" commit -q -a -m "6.1's code, copied back"
st_check "release: git log shows one commit before the student's" \
	[ "$(git -C "$T" rev-list --count HEAD) $(git -C "$T" rev-list --count starter)" = "2 1" ]
git -C "$T" bundle create -q "$R/class/copied.bundle" starter..HEAD
cp "$KIT"/reference-patches/*.patch "$R/class/reference/"
"$KIT/grader/grade-all.sh" --submissions "$R/class" --out "$R/class-out" -j 1 >"$R/class.log" 2>&1
sed 's/^/  /' "$R/class-out/gradebook.csv"
gb=$R/class-out/gradebook.json
# similarity STUDENT LAB: the student's similarity to 6.1 on LAB (JSON);
# in_words: that, said.
similarity() { jq -c --arg s "$1" --arg l "lab$2" '.[] | select(.student == $s) | .labs[$l].similarity' "$gb"; }
in_words() {
	jq -r 'if . == null then "none" elif .counted == 0 then "none (no line written)"
		else "\(.percent)% (\(.matched) of \(.counted) lines)" end'
}
for lab in $(all_labs); do
	echo "  lab $lab similarity to 6.1: copied $(similarity copied "$lab" | in_words)," \
		"reference $(similarity reference "$lab" | in_words)"
	case $lab in
	01 | 04 | 05 | 06)
		pct=$(similarity copied "$lab" | jq '.percent // 0')
		st_check "release: lab $lab copied from 6.1 reads near 100% (${pct}%)" [ "$pct" -ge 95 ] ;;
	esac
done
st_check "release: the copy's bundle was graded (see $R/class.log)" \
	[ "$(jq -r '.[] | select(.student == "copied") | .labs.lab01.verdict' "$gb")" = ok ]
json=$R/class-out/copied/results.json
st_check "release: results.json hides the similarity from students" json_true \
	'[.tests[] | select(.extra_data.similarity) | .visibility] | length > 0 and all(. == "hidden")' "$json"
st_check "release: and Gradescope accepts it" "$KIT/grader/gradescope/check-results.sh" "$json"
echo "  release part: the course's kit made, set up, built and graded in $((t1 - t0)) s; the class in $(($(date +%s) - t1)) s"
