#!/bin/bash
# gradebook.sh OUT "LABS" ENTRY...: OUT/gradebook.csv and gradebook.json from
# each student's lab results (OUT/NAME/labNN.result).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
OUT=$1 LABS=$2
shift 2

csv=$OUT/gradebook.csv json=$OUT/gradebook.json
{
	printf 'student'
	for l in $LABS; do printf ',lab%s' "$l"; done
	printf ',total,max,status\n'
} >"$csv"
echo '[' >"$json"
first=1
for e in "$@"; do
	name=$(basename "$e")
	total=0 max=0 status=ok row=$name jl=
	for l in $LABS; do
		r=$OUT/$name/lab$l.result
		if [ -f "$r" ]; then
			read -r s m v < <(awk -F'\t' '$1 == "test" {s += $4; m += $5} $1 == "verdict" {v = $2} END {print s + 0, m + 0, v}' "$r")
		else
			s=0 m=0 v=not-graded
		fi
		[ "$v" = ok ] || [ "$status" != ok ] || status=$v
		total=$((total + s)) max=$((max + m)) row="$row,$s"
		jl="$jl${jl:+, }\"lab$l\": {\"score\": $s, \"max_score\": $m, \"verdict\": \"$v\"}"
	done
	echo "$row,$total,$max,$status" >>"$csv"
	[ $first = 1 ] || echo ',' >>"$json"
	first=0
	printf '  {"student": "%s", "total": %d, "max_score": %d, "status": "%s", "labs": {%s}}' \
		"$(printf %s "$name" | sed 's/["\\]/\\&/g')" "$total" "$max" "$status" "$jl" >>"$json"
done
printf '\n]\n' >>"$json"
column -s, -t <"$csv" 2>/dev/null || cat "$csv"
echo "gradebook: $csv $json"
