#!/bin/bash
# make release OUT=dir: a course's kit, for its students.
#
# What a student needs to work and to grade their own tree, and nothing
# only the instructor needs:
#   - the kit's files but the instructor's (INSTRUCTOR_ONLY): the labs'
#     READMEs and tests, the grader, the initramfs, kconfig; HANDOUT.md up
#     to its section on the full kit; README.md for students
#     (grader/release-README.md);
#   - starter/linux: the files of Linux 6.1 that the starter changes, as
#     the starter has them, made here from the labs' instrumentation and
#     starter patches; starter/tree: that tree's git id; starter/linux-source:
#     the version of Debian's linux-source-6.1 it was made from.
# The files, not the patches: a starter patch says line for line what it
# took out, so reversed it is the answer.  The student's tree (make setup
# there) starts at the starter: one commit, tag starter, no history of 6.1
# before it; the grader keeps its own (pristine, base) on this side, and a
# grading slot knows a student's starter commit (student_starter).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=release

OUT=${1:?usage: release.sh OUT}
! student_kit || die "this is a course's kit already; make a release from the full kit"
[ ! -e "$OUT" ] || [ -z "$(ls -A "$OUT")" ] || die "$OUT exists and is not empty"
git -C "$KSRC" rev-parse -q --verify base >/dev/null || die "$KSRC has no tag base (run make setup)"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# What only the instructor's kit has (git pathspecs): the answers (the
# reference solutions, the labs' patches), what grades submissions or makes
# kits, the self-tests that need them (and their known-wrong, broken and
# hidden submissions) or check the kit itself (its texts, boot.exp), the
# texts about all that (README.md and HANDOUT.md have their students'
# versions, below).
INSTRUCTOR_ONLY=(
	reference-patches 'labs/*.patch' labs/README.md
	grader/README.md grader/release.sh grader/release-README.md grader/reference.sh
	grader/grade-submission.sh grader/grade-all.sh grader/slot.sh grader/review-patterns
	grader/bench.sh grader/apply.sh
	grader/gradescope/pack.sh 'grader/gradescope/setup*' grader/gradescope/run_autograder
	grader/selftest/mutants grader/selftest/survivors grader/selftest/broken grader/selftest/hidden
	grader/selftest/class.sh grader/selftest/hidden.sh grader/selftest/gradescope.sh
	grader/selftest/broken.sh grader/selftest/mutants.sh 'grader/selftest/release*'
	grader/selftest/hostile.sh grader/selftest/batch.sh grader/selftest/submissions.sh
	grader/selftest/texts.sh grader/selftest/boot.sh grader/selftest/boot
	.github .ci README.md HANDOUT.md
)
stage "the kit's files, but the instructor's"
(cd "$KIT" && git ls-files -co --exclude-standard -z -- . "${INSTRUCTOR_ONLY[@]/#/:!}" |
	xargs -0 cp --parents -t "$OUT")
cp "$KIT/grader/release-README.md" "$OUT/README.md"
# The handout, without its last part: the full kit, for self-learners and
# instructors.
grep -q '^## The full kit' "$KIT/HANDOUT.md" || die "HANDOUT.md has no section '## The full kit'"
sed '/^## The full kit/,$d' "$KIT/HANDOUT.md" >"$OUT/HANDOUT.md"
# The labs' texts as a course's kit has them: what only the full kit can do
# ("<!-- full kit -->" to "<!-- end full kit -->", whole lines) goes, and
# what a course's student does instead ("<!-- course kit: TEXT -->") shows.
for readme in "$OUT"/labs/[0-9][0-9]-*/README.md; do
	sed -i -e '/^<!-- full kit -->$/,/^<!-- end full kit -->$/d' \
		-e 's/^<!-- course kit: \(.*\) -->$/\1/' "$readme"
done

stage "the starter tree's files, from the labs' patches"
tmp=$(mktemp -d "$BUILD/release.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git clone -q --shared --no-checkout "$KSRC" "$tmp/tree"
kit_git -C "$tmp/tree" reset -q base
"$KIT/grader/apply.sh" --tree "$tmp/tree" --cached --commit starter >/dev/null
mkdir -p "$OUT/starter/linux"
git -C "$tmp/tree" diff --name-status --no-renames base HEAD >"$tmp/changes"
while read -r st path; do
	[ "$st" = M ] || [ "$st" = A ] ||
		die "the starter patches change $path ($st): a course's kit carries changed and new files only"
	mkdir -p "$(dirname "$OUT/starter/linux/$path")"
	git -C "$tmp/tree" show "HEAD:$path" >"$OUT/starter/linux/$path"
done <"$tmp/changes"
git -C "$tmp/tree" rev-parse 'HEAD^{tree}' >"$OUT/starter/tree"
{ printf 'linux-source-6.1 ' && cat "$LINUX_SOURCE_VERSION"; } >"$OUT/starter/linux-source" 2>/dev/null ||
	echo "linux-source-6.1 (version unknown)" >"$OUT/starter/linux-source"

stage "wrote $OUT: $(find "$OUT" -type f | wc -l) files; the starter's: $(cut -f2 "$tmp/changes" | paste -sd' ')"
