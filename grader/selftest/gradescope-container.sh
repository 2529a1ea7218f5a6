# shellcheck shell=bash
# Part of make test (run.sh), not run by default (it takes minutes; .ci/run
# runs it after the container part, whose podman and image it uses).
# Gradescope, as it runs the kit: an image made from a base with the
# autograder bundle unpacked in /autograder/source and its setup.sh run
# (podman's default profile, as Docker's: no namespaces, so the grader
# must fall back to its uid isolation), then run_autograder in a new
# container for each submission, at 1 CPU and 768 MB (Gradescope's default
# memory; its default CPU share is half of one).
stage "gradescope-container: Gradescope's flow in podman (setup.sh, then run_autograder at 1 CPU, 768 MB)"
. "$ST/submissions.sh"
GS=$SELF/gradescope-container
rm -rf "$GS"
mkdir -p "$GS"
# FROM the kit's image (the container part's: Debian 12 with the packages
# setup-host.sh installs), so setup.sh finds them there: installing them
# on a bare Debian is what the kit's image build and CI's fresh roots
# prove, with the same setup-host.sh.
base=localhost/schedlab
if ! command -v podman >/dev/null || ! podman image exists "$base"; then
	st_ko "gradescope-container: no podman or no $base image (run the container part first)"
else
	# With this kit's compiler cache, as the container part's kit copy:
	# setup.sh's first build (a fresh grading slot's starter) is then
	# mostly cache hits; a course's image starts with none.
	cache=()
	[ ! -d "${CCACHE_DIR:-}" ] || cache=("$CCACHE_DIR")
	if "$KIT/grader/container.sh" gradescope "$base" "${cache[@]}" >"$GS/image.log" 2>&1; then st_ok; else
		st_ko "container: the Gradescope image does not build: setup.sh failed (log: $GS/image.log)"
	fi
	# gs_run NAME [VAR=VALUE...]: run_autograder on $GS/NAME/submission.
	gs_run() {
		local name=$1
		shift
		"$KIT/grader/container.sh" autograder "$GS/$name" 1 768m "$@" >"$GS/$name.log" 2>&1
	}
	# gs_expect NAME full|zero|VERDICT: its results.json, graded in the uid isolation.
	gs_expect() {
		local json=$GS/$1/results/results.json got
		got=$(jq -r '[.score, ([.tests[].max_score] | add), .extra_data.isolation,
			([.extra_data.labs[].verdict] | unique | join(" "))] | @tsv' "$json" 2>/dev/null)
		IFS=$'\t' read -r score max iso verdicts <<<"$got"
		case $2 in
		full) [ -n "$score" ] && [ "$score" = "$max" ] && [ "$max" != 0 ] ;;
		zero) [ "$score" = 0 ] && [ "${max:-0}" -gt 0 ] && [ "$verdicts" = ok ] ;;
		*) [ "$score" = 0 ] && [ "$verdicts" = "$2" ] ;;
		esac && [ "$iso" = uid ] && st_ok && return
		st_ko "container: Gradescope $1: score ${score:-none} of ${max:-none}, verdicts '${verdicts:-}', isolation '${iso:-}'; expected $2 in the uid isolation (log: $GS/$1.log)"
	}
	mkdir -p "$GS/reference/submission" "$GS/empty/submission" "$GS/include/submission"
	cp "$KIT"/reference-patches/*.patch "$GS/reference/submission/"
	: >"$GS/empty/submission/empty.patch"
	gs_run reference
	gs_expect reference full
	gs_run empty LAB=1
	gs_expect empty zero
	# A build that includes a reference patch: unreadable to the build.
	ref=/autograder/source/reference-patches/$(basename "$(sub_reference 1)")
	f=$GS/deadline.c
	{ echo "#include \"$ref\""; sub_blob kernel/sched/deadline.c; } >"$f"
	sub_patch "$(sub_commit "$SUB_STARTER" include kernel/sched/deadline.c 100644 "$f")" \
		>"$GS/include/submission/include.patch"
	gs_run include LAB=1
	gs_expect include no-build
	# The longest line the reference adds must be in no output.
	line=$(sed -n 's/^+\([^+].*\)/\1/p' "$(sub_reference 1)" | awk '{print length, $0}' | sort -rn | head -n 1 | cut -d' ' -f2-)
	if [ ${#line} -ge 20 ] && ! grep -rqaF -e "$line" "$GS/include/results" "$GS/include.log"; then st_ok; else
		st_ko "container: Gradescope include: a line of the reference patch is in its output (or none to look for)"
	fi
	# A repository (the upload itself) whose git configuration runs a
	# command on any diff.
	sub_repo "$GS/repo/submission" "$(sub_lab1_reference)"
	kit_git -C "$GS/repo/submission" config diff.external "touch /canary/repo-ext; true"
	kit_git -C "$GS/repo/submission" config core.fsmonitor "touch /canary/repo-fsmonitor; true"
	kit_git -C "$GS/repo/submission" config core.pager "touch /canary/repo-pager; cat"
	gs_run repo LAB=1 SUBMISSION_KIND=repo
	gs_expect repo full
	if [ -z "$(ls -A "$GS/repo/canary")" ]; then st_ok; else
		st_ko "container: Gradescope repo: git obeyed the student's configuration ($(ls "$GS/repo/canary"))"
	fi
	for n in reference empty include repo; do
		echo "  gradescope $n: $(jq -r '"\(.score)/\([.tests[].max_score] | add), isolation \(.extra_data.isolation)"' \
			"$GS/$n/results/results.json" 2>/dev/null), peak memory $(($(cat "$GS/$n/results/peak" 2>/dev/null || echo 0) >> 20)) MiB"
	done
fi
