# shellcheck shell=bash
# Part of make test (run.sh): hostile submissions, graded on lab 1 through
# the real pipeline (grade-submission.sh, make grade SUBMISSION=,
# run_autograder), each stopped: it gets the verdict named, no canary file
# the attack tries to create (outside the slot) exists afterwards, and no
# byte of the secret file it tries to read is in any output.  Then the
# sandbox itself, probed directly.  Once for each isolation the grader may
# choose (sandbox.sh): bubblewrap, every case; and, as root, uid (where no
# namespace can be made), the cases its own defences stop: what a build
# reads, what the last submission left, a submission only its owner may
# read, and the probes.  The rest (git's configuration, names, links, the
# allowed changes, the console) the grader stops itself, before or after
# a stage, the same way in either.
. "$ST/submissions.sh"
. "$KIT/grader/sandbox.sh"

# hostile_part KIND: every case, graded with the isolation KIND.
hostile_part() {
	stage "hostile submissions, each stopped (lab 1, isolation $1)"
	export SANDBOX=$1
	# In the build folder, not in the self-test's (which the uid isolation
	# keeps from its user): the graders' outputs and a kit (the Gradescope
	# cases') must be within its reach, the secret not.
	H=$BUILD/hostile-$1
	HO=$H/out
	rm -rf "$H" "$H"-*.log
	mkdir -p "$H/subs" "$H/canary" "$H/secret" "$HO"
	chmod 0711 "$H"
	chmod 0700 "$H/secret"
	CANARY=$H/canary
	# A file a submission must never read: distinctive, so any output holding
	# a piece of it is found.
	SECRET=$H/secret/secret.txt
	echo "SECRET$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" >"$SECRET"
	ref1=$(sub_lab1_reference)

	# An instructor's own git configuration that used to break every
	# repository submission: used for every grading here.
	mkdir -p "$H/home"
	printf '[diff]\n\tnoprefix = true\n\tmnemonicPrefix = true\n[color]\n\tui = always\n\tdiff = always\n' \
		>"$H/home/.gitconfig"

	# edited PATH PROGRAM: the starter's PATH through an awk PROGRAM, in a file.
	edited() {
		local f
		f=$H/$(basename "$1").$RANDOM
		sub_blob "$1" | awk "$2" >"$f"
		echo "$f"
	}
	# first_line PATH LINE: the starter's PATH with LINE before its first.
	first_line() { edited "$1" "NR == 1 {print \"$(printf '%s' "$2" | sed 's/[\\"]/\\&/g')\"} {print}"; }

	# grade_case NAME KIND SUBMISSION: grade it as an instructor would.
	grade_case() {
		HOME=$H/home BOOT_TIMEOUT=60 "$KIT/grader/grade-submission.sh" --submission "$3" \
			--out "$HO/$1" --labs 01 ${2:+--kind "$2"} >"$H-$1.log" 2>&1
	}

	# expect_case NAME VERDICT [full]: the case's verdict (and full marks).
	expect_case() {
		local r=$HO/$1/lab01.result json got score max why
		json=$(result_json "$r" 2>/dev/null)
		got=$(jq -r '.extra_data.labs[0].verdict' <<<"$json" 2>/dev/null)
		score=$(jq -r '.score' <<<"$json" 2>/dev/null)
		max=$(jq -r '.extra_data.labs[0].max_score' <<<"$json" 2>/dev/null)
		if [ "$got" = "$2" ] && { [ "${3:-}" != full ] || [ "$score" = "$max" ]; }; then
			st_ok "$1"
			why=$(jq -r '.extra_data.labs[0].detail' <<<"$json")
			[ "$got" != no-build ] ||
				why=$(jq -r '.extra_data.labs[0].output' <<<"$json" | grep -m 1 -E 'rror|limit')
			printf '  %-14s %-9s %s/%s  %s\n' "$1" "$got" "$score" "$max" "$(echo "$why" | sed 's|.*/slot[0-9]*/linux/||' | cut -c 1-100)"
		else
			st_ko "$1: verdict '${got:-none}' ($score/$max), expected '$2'${3:+ with full marks} (log: $H-$1.log)"
		fi
	}

	# (With bubblewrap only, down to the build's section: the part's header.)
	if [ "$1" = bwrap ]; then
		# --- git must never obey the student's configuration -------------------------
		# A repository (SUBMISSION_KIND=repo) whose config runs a command on
		# any diff, and whose attributes (not a tracked file) name a
		# textconv and a filter.
		r=$H/subs/repo-config
		sub_repo "$r" "$ref1"
		kit_git -C "$r" config diff.external "touch $CANARY/repo-ext; true"
		kit_git -C "$r" config core.fsmonitor "touch $CANARY/repo-ext-fsmonitor; true"
		kit_git -C "$r" config core.pager "touch $CANARY/repo-ext-pager; cat"
		kit_git -C "$r" config diff.x.textconv "touch $CANARY/repo-textconv; cat"
		kit_git -C "$r" config filter.x.clean "touch $CANARY/repo-textconv-clean; cat"
		kit_git -C "$r" config filter.x.smudge "touch $CANARY/repo-textconv-smudge; cat"
		printf '* diff=x filter=x\n' >"$r/.git/info/attributes"
		grade_case repo-config repo "$r"
		expect_case repo-config ok full
		# A folder of patches that looks like a bare repository, its name
		# spaces, quotes and a command substitution, through make grade
		# SUBMISSION=: graded as patches.
		d=$H/subs/"my work \$(touch schedlab-canary-dollar) 'it's \"done\"'"
		mkdir -p "$d/objects/info" "$d/refs/heads"
		echo "ref: refs/heads/main" >"$d/HEAD"
		printf '[core]\n\tbare = true\n[diff]\n\texternal = touch %s/lookalike\n' "$CANARY" >"$d/config"
		cp "$(sub_reference 1)" "$d/01.patch"
		HOME=$H/home BOOT_TIMEOUT=60 make -s -C "$KIT" grade SUBMISSION="$d" LAB=1 \
			OUT="$HO/lookalike" >"$H-lookalike.log" 2>&1
		expect_case lookalike ok full
		# A bundle bomb: a repository whose few KB of history check out as
		# 24 MB of zeros: refused before anything is written, naming the limit.
		head -c $((24 << 20)) /dev/zero >"$H/zeros"
		sub_repo "$H/subs/bomb" "$(sub_commit "$ref1" bomb kernel/sched/stats.h 100644 "$H/zeros")"
		rm -f "$H/zeros"
		grade_case bomb repo "$H/subs/bomb"
		expect_case bomb no-apply
		st_check "bomb: refused for its size, before its checkout" bash -c \
			"grep -q 'more than the limit of 16 MB' '$HO/bomb/lab01.result' && [ -z \"\$(find '$BUILD/grading' -path '*/linux/kernel/sched/stats.h' -size +1M 2>/dev/null)\" ]"

		# --- names ---------------------------------------------------------------------
		# run_autograder, from the kit as Gradescope unpacks it, on a fake root.
		mkdir -p "$H/source"
		"$KIT/grader/gradescope/pack.sh" "$H/autograder.zip" 2>/dev/null
		(cd "$H/source" && unzip -q "$H/autograder.zip")
		autograder() {
			(cd "$H" && HOME=$H/home AUTOGRADER_ROOT=$1 BUILD=$BUILD KSRC=$KSRC LAB=1 "$H/source/run_autograder")
		}
		# An upload nested in two folders, its patch's name a shell command.
		gs=$H/gradescope
		mkdir -p "$gs/submission/lab/patches"
		cp "$(sub_reference 1)" "$gs/submission/lab/patches/fix;touch schedlab-canary-semicolon;.patch"
		autograder "$gs" >"$H-semicolon.log" 2>&1
		if [ "$(jq '.score' "$gs/results/results.json" 2>/dev/null)" = \
			"$(jq '[.tests[].max_score] | add' "$gs/results/results.json" 2>/dev/null)" ] &&
			[ "$(jq '.tests | length' "$gs/results/results.json" 2>/dev/null)" -gt 0 ]; then
			st_ok "semicolon, nested"
			echo "  semicolon      ok        full marks, through run_autograder (in lab/patches/)"
		else
			st_ko "semicolon, nested: run_autograder did not grade lab/patches/'fix;touch ...;.patch' (log: $H-semicolon.log)"
		fi
		# An empty upload.
		mkdir -p "$H/gs-empty/submission"
		autograder "$H/gs-empty" >"$H-gs-empty.log" 2>&1
		if jq -r '.extra_data.labs[0].output' "$H/gs-empty/results/results.json" 2>/dev/null |
			grep -q 'holds no patch'; then
			st_ok "empty upload"
			echo "  empty upload   no-apply  $(jq -r '.extra_data.labs[0].output' "$H/gs-empty/results/results.json" |
				head -n 1 | sed 's/.*submission: //' | cut -c 1-100)"
		else
			st_ko "an empty Gradescope upload does not say it holds no patch ($H-gs-empty.log)"
		fi
		# An upload that is a symbolic link to the kit's reference solutions
		# (or to one of them, inside a folder): refused, never followed.
		mkdir -p "$H/gs-link/submission" "$H/gs-link-deep/submission/work"
		ln -s "$H/source/reference-patches" "$H/gs-link/submission/my-work"
		ln -s "$H/source/reference-patches/$(basename "$(sub_reference 1)")" "$H/gs-link-deep/submission/work/01.patch"
		for c in link link-deep; do
			autograder "$H/gs-$c" >"$H-gs-$c.log" 2>&1
			if [ "$(jq -r '[.score, .extra_data.labs[0].verdict] | @tsv' "$H/gs-$c/results/results.json" 2>/dev/null)" = \
				"0	rejected" ] && grep -q 'symbolic link' "$H/gs-$c/results/results.json"; then
				st_ok "$c upload"
				echo "  $c upload   rejected  $(jq -r '.extra_data.labs[0].detail' "$H/gs-$c/results/results.json" | cut -c 1-90)"
			else
				st_ko "a Gradescope upload with a symbolic link to the reference was not refused ($H-gs-$c.log)"
			fi
		done
		# The same in a class: an entry that is a link to the reference.
		mkdir -p "$H/class"
		ln -s "$(sub_reference 1)" "$H/class/linked.patch"
		HOME=$H/home "$KIT/grader/grade-all.sh" --submissions "$H/class" --out "$HO/class" --labs 01 -j 1 \
			>"$H-class.log" 2>&1
		if [ "$(jq -r '.[0] | [.total, .status] | @tsv' "$HO/class/gradebook.json" 2>/dev/null)" = "0	rejected" ]; then
			st_ok "linked class entry"
			echo "  linked entry   rejected  in grade-all's gradebook"
		else
			st_ko "grade-all graded a class entry that is a symbolic link to the reference ($H-class.log)"
		fi

		# --- the allowed changes -------------------------------------------------------
		link=$H/link-target
		printf '%s' "$SECRET" >"$link"
		sub_patch "$(sub_commit "$SUB_STARTER" "a link" kernel/sched/deadline.c 120000 "$link")" >"$H/subs/symlink.patch"
		grade_case symlink '' "$H/subs/symlink.patch"
		expect_case symlink rejected
		# A NUL byte past the first 8000 bytes (where git stops looking for one).
		f=$(edited kernel/sched/core.c '{print} END {printf "/* a NUL byte: %c */\n", 0}')
		sub_patch "$(sub_commit "$SUB_STARTER" "a NUL" kernel/sched/core.c 100644 "$f")" >"$H/subs/nul.patch"
		grade_case nul '' "$H/subs/nul.patch"
		expect_case nul rejected
	fi

	# --- the build reads no host file and does not hang ------------------------------
	f=$(first_line kernel/sched/deadline.c '#include "/etc/hostname"')
	sub_patch "$(sub_commit "$SUB_STARTER" hostname kernel/sched/deadline.c 100644 "$f")" >"$H/subs/hostname.patch"
	grade_case hostname '' "$H/subs/hostname.patch"
	expect_case hostname no-build
	# A compiler error that quotes escape sequences (retitle, clear the
	# screen): cleaned before it reaches the terminal or a log, the text
	# around them kept.
	f=$(first_line kernel/sched/deadline.c "$(printf '#error "schedlab-escape \033]0;title\007\033[2J"')")
	sub_patch "$(sub_commit "$SUB_STARTER" escape kernel/sched/deadline.c 100644 "$f")" >"$H/subs/escape.patch"
	grade_case escape '' "$H/subs/escape.patch"
	expect_case escape no-build
	if grep -q 'schedlab-escape' "$H-escape.log" && ! grep -q "$(printf '\033')" "$H-escape.log"; then
		st_ok "escape"
	else
		st_ko "escape: the build's error reached the grader's output with its escape sequences, or not at all ($H-escape.log)"
	fi
	f=$(first_line kernel/sched/deadline.c "asm(\".pushsection .rodata\\n.incbin \\\"$SECRET\\\"\\n.popsection\");")
	sub_patch "$(sub_commit "$SUB_STARTER" incbin kernel/sched/deadline.c 100644 "$f")" >"$H/subs/incbin.patch"
	grep -q "incbin" "$H/subs/incbin.patch" || st_ko "incbin: the test's patch has no .incbin"
	grade_case incbin '' "$H/subs/incbin.patch"
	expect_case incbin no-build
	f=$(first_line kernel/sched/deadline.c '#include "/dev/stdin"')
	sub_patch "$(sub_commit "$SUB_STARTER" stdin kernel/sched/deadline.c 100644 "$f")" >"$H/subs/stdin.patch"
	# Its stdin is a pipe that never ends (this shell holds its write end):
	# the build reads none of it.
	mkfifo "$H/stdin.fifo"
	exec {never}<>"$H/stdin.fifo"
	grade_case stdin '' "$H/subs/stdin.patch" <&"$never"
	exec {never}>&-
	expect_case stdin ok
	for c in incbin stdin hostname; do
		if grep -q . "$HO/$c/review.txt" 2>/dev/null; then st_ok; else
			st_ko "$c: not flagged for review ($HO/$c/review.txt)"
		fi
	done
	# An #include split by a backslash, which no review pattern sees: the
	# build's own dependency lists show what the compiler read.  The
	# other spellings of an #include and an .incbin, each flagged; and a
	# call pasted together by a macro, which the preprocessed source shows.
	inc=/usr/aarch64-linux-gnu/include/linux/errno.h
	# (It also leaves a mark in its build, for the next case to look for.)
	leftover=schedlab-leftover-of-split-include
	cat >"$H/split-include.c" <<EOF
#inc\\
lude "$inc"
%:include "$inc"
#/**/include "$inc"
asm(".pushsection .rodata\\n.inc" "bin \\"$inc\\"\\n.popsection");
static const char schedlab_leftover[] __used = "$leftover";
#define SCHEDLAB_CAT(a, b) a##b
static __used void schedlab_hidden(void) { SCHEDLAB_CAT(kernel_, read)(NULL, NULL, 0, NULL); }
EOF
	f=$(edited kernel/sched/deadline.c "NR == 1 {while ((getline l <\"$H/split-include.c\") > 0) print l} {print}")
	leftover_blob=$(git hash-object "$f")
	sub_patch "$(sub_commit "$SUB_STARTER" split-include kernel/sched/deadline.c 100644 "$f")" >"$H/subs/split-include.patch"
	grep -qx '+#inc\\' "$H/subs/split-include.patch" || st_ko "split-include: the test's patch does not split its #include"
	grade_case split-include '' "$H/subs/split-include.patch"
	expect_case split-include ok
	st_check "split-include: the file its build read is flagged for review" \
		grep -qxF "the build read a file outside the tree: $inc" "$HO/split-include/review.txt"
	for spelling in '%:include' '#/**/include' '.inc" "bin'; do
		st_check "split-include: '$spelling' is flagged for review" \
			grep -qF "$spelling" "$HO/split-include/review.txt"
	done
	# A call no pattern sees in the source (kernel_read, pasted by ##):
	# the preprocessed source shows it.
	st_check "split-include: the call its macro makes is flagged, preprocessed" \
		grep -q '(preprocessed, numbers as 0): .*kernel_read *(' "$HO/split-include/review.txt"
	# Every submission is built on the starter's build, and nothing of the
	# last one stays in the slot: its mark, in the build folder (and, in
	# the uid isolation, where the build can read it, in the slot's
	# repository) after split-include, is gone after the next.
	slot0=$BUILD/grading/slot0
	left_build() { grep -rqaF "$leftover" "$slot0/obj"; }
	left_commit() { kit_git -c safe.directory='*' --git-dir="$slot0/linux/.git" cat-file -e "$leftover_blob"; }
	st_check "leftover: split-include's mark is in its build" left_build
	[ "$1" != uid ] || st_check "leftover: split-include's change is in its slot's repository" left_commit

	# The next submission: in a folder only its owner may read (mktemp -d,
	# a home): the grader copies it in; it is graded, not refused.  And
	# nothing of split-include's build is left for it.
	mkdir -m 0700 "$H/private"
	cp "$(sub_reference 1)" "$H/private/01.patch"
	grade_case private '' "$H/private/01.patch"
	expect_case private ok full
	st_xfail "leftover: split-include's mark is in the next submission's build" left_build
	[ "$1" != uid ] || st_xfail "leftover: split-include's change is in the next submission's repository" left_commit

	# --- the console ------------------------------------------------------------------
	if [ "$1" = bwrap ]; then
		# (It also changes sched_fork() as a forger would, for the review and
		# the change map to name.)
		f=$(edited kernel/sched/core.c '{print} /^void __init sched_init_smp\(void\)$/ {f = 1; next}
			f && /^\{$/ {f = 0; print "\tunsigned long schedlab_n = 0;\n\n\tfor (;;)\n\t\tpr_info(\"schedlab flood %lu: the console must stop this\\n\", schedlab_n++);"}
			/^int sched_fork\(/ {g = 1; next}
			g && /^\{$/ {g = 0; print "\tif (!strcmp(current->comm, \"schedlab-forge\"))\n\t\tpr_info(\"a forged line\\n\");\n"}')
		grep -q 'schedlab flood' "$f" || st_ko "flood: the test's patch does not loop"
		grep -q 'schedlab-forge' "$f" || st_ko "flood: the test's patch does not change sched_fork()"
		sub_patch "$(sub_commit "$SUB_STARTER" flood kernel/sched/core.c 100644 "$f")" >"$H/subs/flood.patch"
		grade_case flood '' "$H/subs/flood.patch"
		expect_case flood flood
		st_check "forge: review names sched_fork() and its ->comm" \
			grep -q '(in sched_fork()): .*current->comm' "$HO/flood/review.txt"
		st_check "change map: sched_fork() and sched_init_smp(), changed outside the labs, in results.json" json_true \
			'(.extra_data.change_map.changed | sort) == ["kernel/sched/core.c:sched_fork", "kernel/sched/core.c:sched_init_smp"]' \
			"$HO/flood/results.json"
		read -r _ _ _ _ cap < <(_sandbox_limits boot)
		cap=$(numfmt --from=iec "$cap")
		for log in "$HO"/flood/boot*.log; do
			if [ "$(stat -c %s "$log")" -le "$cap" ]; then st_ok; else
				st_ko "flood: $log is not capped at $cap bytes"
			fi
		done
	fi

	# --- nothing escaped ------------------------------------------------------------------
	escaped=$(ls -d "$CANARY"/* "$KIT"/schedlab-canary-* "$H"/schedlab-canary-* "$H"/source/schedlab-canary-* \
		"$PWD"/schedlab-canary-* 2>/dev/null)
	if [ -z "$escaped" ]; then st_ok "no canary"; else
		st_ko "a hostile submission ran a command on the host: $escaped"
	fi
	secret=$(cat "$SECRET")
	if grep -rlaF -e "$secret" "$HO" "$H"-*.log "$H/gradescope/results" 2>/dev/null |
		grep -q .; then
		st_ko "the secret file's content is in an output: $(grep -rlaF -e "$secret" "$HO" "$H"-*.log | head -n 3)"
	else
		st_ok "no secret"
	fi
	# (The uid isolation cannot hide /etc: grader/README.md, trust model.)
	host=$(cat /etc/hostname 2>/dev/null || true)
	if [ "$1" != uid ] && [ ${#host} -ge 6 ] && grep -rqaF -e "$host" "$HO/hostname"; then
		st_ko "hostname: /etc/hostname's content is in the output"
	fi

	# --- the sandbox, probed ------------------------------------------------------------
	stage "the sandbox: what a submission's build can reach"
	probe=$BUILD/grading/probe
	mkdir -p "$probe"
	SANDBOX_KIND=$1
	# In the uid isolation, the probe is a slot of its own user (9), so
	# that slot 0 is another slot's.
	local uid=$SANDBOX_UID
	sandbox_slot_user 9
	# A file of $HOME's that others may read, as a dotfile is (made before
	# the grader protects $HOME, as any of its files is).
	local home_file=$HOME/.schedlab-probe-$$
	echo probe >"$home_file"
	chmod 0644 "$home_file"
	[ "$1" != uid ] || sandbox_protect
	sandbox_own "$probe"
	[ "$1" != uid ] || chmod 0700 "$probe"
	inside() { sandbox_run "$probe" --stage apply -- bash -c "$1" 2>/dev/null; }
	st_check "sandbox: runs as an unprivileged user" inside '[ "$(id -u)" != 0 ] && ! grep -q "^CapEff:.*[1-9a-f]" /proc/self/status'
	st_check "sandbox: can write its slot" inside "touch '$probe/x'"
	st_xfail "sandbox: reaches the network" inside 'exec 3<>/dev/tcp/127.0.0.1/22 || exec 3<>/dev/tcp/1.1.1.1/53'
	st_xfail "sandbox: sees reference-patches/" inside "ls '$KIT/reference-patches'"
	st_xfail "sandbox: sees the kit's git history" inside "ls '$KIT/.git'"
	st_xfail "sandbox: sees the kit's compiler cache" inside "ls '$BUILD/ccache'"
	st_xfail "sandbox: sees the results and other slots" inside "ls '$SELF' || ls '$BUILD/grading/slot0'"
	# By name, as root lists them (not the kit's, where it is in $HOME).
	find "$(realpath "$HOME")" -maxdepth 3 -path "$(realpath "$KIT")" -prune -o -type f -print 2>/dev/null |
		head -n 200 >"$probe/home-files"
	st_xfail "sandbox: reads a file of \$HOME" inside "while read -r f; do head -c 1 \"\$f\" >/dev/null && exit 0; done <'$probe/home-files'; exit 1"
	rm -f "$home_file"
	st_xfail "sandbox: writes outside its slot" inside "touch '$KIT/labs/x' || touch /usr/x"
	# The uid isolation cannot hide them (grader/README.md, trust model).
	[ "$1" = uid ] || st_xfail "sandbox: reads the kernel tree's objects unasked" inside "ls '$KSRC/.git'"
	overstays() { sandbox_run "$probe" --time 1 -- sleep 30 2>/dev/null; [ $? = 124 ]; }
	# A process that leaves the stage's process group (setsid) and outlives it.
	# (A duration of its own: another run on the machine may sleep 300
	# too.  Killed, it may take a moment to be gone on a loaded machine:
	# 2 s of the 300 it would last.)
	left_nothing() {
		local p i t=300.$$
		sandbox_run "$probe" -- bash -c "setsid sleep $t >/dev/null 2>&1 </dev/null & exit 0" 2>/dev/null
		for ((i = 0; i < 20; i++)); do
			sleep 0.1
			for p in /proc/[0-9]*; do
				[ "$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" != "sleep $t " ] || continue 2
			done
			return 0
		done
		return 1
	}
	st_check "sandbox: a stage that overstays is stopped" overstays
	cut_at_limit() {
		sandbox_run "$probe" --stage read -- \
			bash -c 'f=${TMPDIR:-/tmp}/big; dd if=/dev/zero of=$f bs=1M count=100; [ "$(stat -c %s $f)" -le 67108864 ]' 2>/dev/null
	}
	st_check "sandbox: a file past the stage's size limit is cut" cut_at_limit
	st_check "sandbox: nothing of its user is left running after a stage" left_nothing
	SANDBOX_UID=$uid SANDBOX_KIND=
	# Instructor grading refuses to run without the isolation asked for,
	# and says why.
	if SANDBOX=$1 BWRAP=/nonexistent/bwrap NO_NETWORK=/nonexistent \
		"$KIT/grader/grade-submission.sh" --submission "$(sub_reference 1)" \
		--out "$HO/no-sandbox" --labs 01 >"$H-no-sandbox.log" 2>&1; then
		st_ko "grading ran without the sandbox"
	elif grep -q 'SANDBOX=off' "$H-no-sandbox.log"; then
		st_ok "no sandbox, no grading"
		echo "  no sandbox     error     $(grep '^error:' "$H-no-sandbox.log" | sed 's/.*, and //' | cut -c 1-100)"
	else
		st_ko "grading without the sandbox failed without saying why ($H-no-sandbox.log)"
	fi
	# As root, where bubblewrap cannot start, grading falls back to uid
	# and says so, in its output and in results.json.
	if [ "$1" = bwrap ] && [ "$(id -u)" = 0 ]; then
		HOME=$H/home SANDBOX=on BWRAP=/nonexistent/bwrap BOOT_TIMEOUT=60 "$KIT/grader/grade-submission.sh" \
			--submission "$(sub_reference 1)" --out "$HO/fallback" --labs 01 >"$H-fallback.log" 2>&1
		expect_case fallback ok full
		if grep -q 'isolation: uid' "$H-fallback.log" &&
			[ "$(jq -r '.extra_data.isolation' "$HO/fallback/results.json" 2>/dev/null)" = uid ]; then
			st_ok "fallback named"
		else
			st_ko "the fallback to the uid isolation is not named in the output and results.json ($H-fallback.log)"
		fi
	fi
}

hostile_part bwrap
[ "$(id -u)" != 0 ] || hostile_part uid
export SANDBOX=on
unset SANDBOX_KIND
