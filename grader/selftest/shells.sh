# shellcheck shell=bash
# Part of make test (run.sh): the labs in order, as a student does them.
# On the self-test's tree (st_tree), the references of labs 1..k
# are committed, for k = 0..6, and the tree graded for lab k alone (lab 1
# on the starter), as a student grades a tree: a lab's reference needs no
# later lab's work, and the starter scores 0.  Then, on that kernel, each
# lab's shell.txt is fed to make shell (explore.sh) twice: on the tree of
# its own solution (k = its lab) and on the tree before it (k = its lab
# less one), where a student starts it; what each line of the table below
# says must show in its output, and no line may be refused by the shell
# ("not found", a usage message).
SH=$SELF/shells
mkdir -p "$SH"

# lab, tree, how many lines of the output match (a number, or + for one
# or more), and the extended regular expression they match.  The trees:
# "before" has the references of the labs before the lab, "solved" the
# lab's too.  (A terminal of 80 columns folds the echoed commands.)
shell_expect() {
	cat <<'EOF'
01	before	1	^chrt: failed .*Device or resource busy
01	before	1	^0-2$
01	before	0	^sh: write error
01	solved	3	^chrt: failed .*Device or resource busy
01	solved	1	^sh: write error: Device or resource busy
01	solved	1	^0-3$
01	solved	4	^cpu[0-3] running_bw [0-9]+ .* free 1 capacity [0-9]+$
02	before	+	sched_wakeup: +dl:[0-9]+ 
02	solved	+	sched_wakeup: +dl:[0-9]+ .*CPU:00[23]$
02	solved	0	sched_wakeup: +dl:[0-9]+ .*CPU:00[01]$
03	before	1	^0$
03	solved	1	^[23]$
04	solved	1	^cpu1 uclamp\.min 307 tasks 0 1 0 0 0 values 0 307 0 0 0$
04	solved	1	^cpu1 uclamp\.max 717 tasks 0 0 0 1 0 values 0 0 0 717 
04	solved	1	^cpu1 uclamp\.min 0 tasks 0 0 0 0 0 values 0 307 0 0 0$
05	solved	1	^sh \([0-9]+\) util_clamp: min: 0 max: 1024$
05	solved	1	^1024$
05	solved	1	^uclampset \([0-9]+\) util_clamp: min: 1024 max: 1024$
05	solved	1	^sh \([0-9]+\) util_clamp: min: 200 max: 1024$
05	solved	1	^uclampset: failed to set pid [0-9]+'s uclamp values: Invalid argument$
05	solved	1	^uclampset \([0-9]+\) util_clamp: min: 200 max: 1024$
06	before	0	^40\.00$
06	solved	2	^60\.00$
06	solved	1	^40\.00$
EOF
}

# shell_run LAB K: lab LAB's shell.txt on the kernel of the slot's tree,
# its output in $SH/LAB-on-K.out; the shell must power off (status 0).
shell_run() {
	local lab=$1 k=$2 dir out
	dir=$(lab_dir "$lab")
	out=$SH/$lab-on-$k.out
	KSRC=$ST_TREE OBJ=$ST_OBJ \
		timeout 600 "$KIT/grader/explore.sh" shell "$lab" <"$dir/shell.txt" >"$out" 2>&1
	st_check "lab $lab's shell.txt on the references of labs 1-$k: make shell powers off ($out)" [ $? = 0 ]
	st_check "lab $lab's shell.txt on the references of labs 1-$k: no command refused ($out)" \
		bash -c "! grep -E ': not found|^Usage:|[Uu]nknown option|invalid option' '$out'"
}

# shell_check LAB TREE K: the table's lines for LAB and TREE on that output.
shell_check() {
	local lab tree n re got out=$SH/$1-on-$3.out
	while IFS=$'\t' read -r lab tree n re; do
		[ "$lab" = "$1" ] && [ "$tree" = "$2" ] || continue
		got=$(grep -cE -- "$re" "$out")
		if [ "$n" = + ] && [ "$got" -gt 0 ] || [ "$n" = "$got" ]; then st_ok; else
			st_ko "lab $1's shell.txt, $2 (labs 1-$3): $got line(s) match '$re', expected $n ($out)"
		fi
	done < <(shell_expect)
}

stage "the labs in order: each lab's reference on those before it, and its shell.txt"
make -s -C "$KIT" "$BUILD/initramfs-shell.cpio" "$BUILD/grader/small-pages" >"$SH/make.log" 2>&1 ||
	st_ko "make shell's initramfs and launcher ($SH/make.log)"
st_tree >"$SH/tree.log" 2>&1 || st_ko "the labs in order: no starter tree ($SH/tree.log)"
read -ra labs <<<"$(all_labs)"
for ((k = 0; k <= ${#labs[@]}; k++)); do
	t0=$SECONDS
	lab=${labs[$((k > 0 ? k - 1 : 0))]}
	[ $k = 0 ] || "$KIT/grader/apply.sh" --tree "$ST_TREE" --commit reference "$lab" >>"$SH/tree.log" 2>&1 ||
		st_ko "the labs in order: lab $lab's reference does not apply on those before it ($SH/tree.log)"
	"$KIT/grader/grade.sh" --src "$ST_TREE" --obj "$ST_OBJ" --labs "$lab" --out "$SH/grade-$k" \
		>"$SH/grade-$k.log" 2>&1
	if [ $k = 0 ]; then
		st_check "the starter, lab $lab: 0 ($SH/grade-$k)" \
			json_true '.score == 0 and .extra_data.labs[0].verdict == "ok"' "$SH/grade-$k/results.json"
	else
		st_check "the references of labs 1-$k, lab $lab: full marks ($SH/grade-$k)" \
			json_true '.score == .max_score and .extra_data.labs[0].verdict == "ok"' "$SH/grade-$k/results.json"
	fi
	if [ $k -gt 0 ]; then
		shell_run "$lab" $k
		shell_check "$lab" solved $k
	fi
	if [ $k -lt ${#labs[@]} ]; then
		shell_run "${labs[$k]}" $k
		shell_check "${labs[$k]}" before $k
	fi
	echo "  labs 1-$k: $((SECONDS - t0)) s"
done
