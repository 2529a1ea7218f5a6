# shellcheck shell=bash
# Part of make test (run.sh): one submission per failure class (does not
# apply, does not build, panics, hangs, changes a forbidden file, prints
# fake result lines, WARNs), graded on lab 1: each must get its verdict and
# score 0; a second run must resume, not regrade.

stage "one broken submission per failure class (lab 1)"
B=$SELF/broken
mkdir -p "$B"
for p in no-apply no-build oops-at-boot hang-at-boot forbidden-file fake-results warn-in-admission; do
	cp "$ST/broken/$p.patch" "$B/"
done
batch() { BOOT_TIMEOUT=60 "$KIT/grader/grade-all.sh" --submissions "$B" --out "$SELF/broken-out" --labs 01 -j 1; }
batch >"$SELF/broken.log" 2>&1
sed 's/^/  /' "$SELF/broken-out/gradebook.csv"
class_pages_agree "broken class" "$SELF/broken-out"
while read -r name want; do
	json=$(result_json "$SELF/broken-out/$name/lab01.result" 2>/dev/null)
	got=$(jq -r '.extra_data.labs[0].verdict' <<<"$json" 2>/dev/null)
	score=$(jq -r '.score' <<<"$json" 2>/dev/null)
	if [ "$got" = "$want" ] && [ "$score" = 0 ]; then st_ok; else
		st_ko "$name: verdict '$got' with score $score, expected '$want' with 0"
	fi
	if [ "$(jq -r --arg n "$name" '.[] | select(.student == $n) | .status' \
		"$SELF/broken-out/gradebook.json" 2>/dev/null)" = "$want" ]; then st_ok; else
		st_ko "$name: the gradebook does not say $want"
	fi
done <<'EOF2'
no-apply no-apply
no-build no-build
oops-at-boot panic
hang-at-boot hang
forbidden-file rejected
fake-results ok
warn-in-admission warning
EOF2
if lab_field "$SELF/broken-out/fake-results/lab01.result" detail | grep -q 'were ignored'; then
	st_ok
else
	st_ko "fake-results: the report does not say that unmarked result lines were ignored"
fi
batch >"$SELF/broken-again.log" 2>&1
n=$(grep -c 'already graded' "$SELF/broken-again.log")
if [ "$n" = 7 ]; then st_ok; else st_ko "a second batch run regraded: $n of 7 were skipped"; fi
