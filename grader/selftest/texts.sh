# shellcheck shell=bash
# Part of make test (run.sh): the texts a student reads say true things.
#
#   - every lab's README.md has the same sections, in the same order;
#   - every C identifier it puts in backticks exists in the starter tree
#     (git grep -w at the tag "starter" of $KSRC, in kernel/, include/,
#     mm/, init/ and arch/arm64/), in the lab's tests, or
#     on the README's "New names:" line (what the lab asks the student to
#     create);
#   - nothing addressed to students cites the upstream mails as "seeds",
#     or points at the full kit's 6.1 history (tag pristine), which a
#     course's kit has not.

stage "texts: lab READMEs' shape and names, no seeds, no pristine"
TX=$SELF/texts
mkdir -p "$TX"
SECTIONS="Background|What to implement|Differences from upstream|How it is tested|Hints|References"
readmes=("$KIT"/labs/[0-9][0-9]-*/README.md)
for readme in "${readmes[@]}"; do
	lab=$(basename "$(dirname "$readme")")
	got=$(sed -n 's/^## //p' "$readme" | paste -sd'|')
	st_check "texts: $lab/README.md has the sections $SECTIONS (has: $got)" [ "$got" = "$SECTIONS" ]
	st_check "texts: $lab/README.md starts with '# Lab N: title'" grep -q '^# Lab [0-9]*: ' <(head -n 1 "$readme")
	# Identifier-shaped words in backticks (a trailing "()" dropped), minus
	# the new names and the tests' own names.
	sed -n 's/^New names: *//p' "$readme" | grep -o '`[^`]*`' | tr -d '`()' | sort -u >"$TX/$lab.new"
	cat "$(dirname "$readme")"/tests/*.[ch] "$KIT"/labs/lib/*.[ch] | grep -o '\<[A-Za-z_][A-Za-z0-9_]*\>' |
		sort -u >"$TX/$lab.tests"
	grep -o '`[A-Za-z_][A-Za-z0-9_]*\(()\)\?`' "$readme" | tr -d '`()' | sort -u |
		comm -23 - "$TX/$lab.new" | comm -23 - "$TX/$lab.tests" >"$TX/$lab.names"
done
# The names of every README, looked for at once where the labs' code and
# what it calls live (the whole tree's 75000 files take a minute).
sort -u "$TX"/*.names >"$TX/all.names"
if [ -s "$TX/all.names" ]; then
	git -C "$KSRC" grep -h -o -w -F -f "$TX/all.names" starter -- kernel include mm init arch/arm64 2>/dev/null |
		sed 's/^starter://' | sort -u >"$TX/all.found"
else
	: >"$TX/all.found"
fi
for readme in "${readmes[@]}"; do
	lab=$(basename "$(dirname "$readme")")
	comm -23 "$TX/$lab.names" "$TX/all.found" >"$TX/$lab.missing"
	st_check "texts: every name in $lab/README.md exists in the starter tree (missing: $(paste -sd' ' "$TX/$lab.missing"))" \
		[ ! -s "$TX/$lab.missing" ]
done
# (A random scenario's seed, sl_seed(), is another word: "seed 12", "seeds/"
# and "seed N" are the mails' way.)
seeds=$(cd "$KIT" && grep -rnilE 'seeds?/|seeds? ([0-9]|N\b)' labs/ HANDOUT.md | paste -sd' ')
st_check "texts: no upstream mail cited as a seed in labs/ or HANDOUT.md ($seeds)" [ -z "$seeds" ]
pristine=$(cd "$KIT" && grep -il 'pristine' HANDOUT.md labs/[0-9][0-9]-*/README.md | paste -sd' ')
st_check "texts: no 'pristine' in HANDOUT.md or a lab's README ($pristine)" [ -z "$pristine" ]
# Every command the full kit's texts name is one it has.
st_texts_real "$KIT"
