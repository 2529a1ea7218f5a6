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
