#!/bin/bash
# make bench: how long grading takes on this machine.
#
#   cold       setup (extract, git, sysroot) + first build + grade of every
#              lab, in a build folder of its own ($BUILD/bench)
#   regrade    the same "make grade" after touching kernel/sched/deadline.c
#   boot       one lab's boot, from QEMU start to poweroff, alone
#
# The numbers are wall-clock seconds of this run; nothing is asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=bench

B=$BUILD/bench
now() { date +%s.%N; }
secs() { printf '%.1f' "$(echo "$2 - $1" | bc)"; }

rm -rf "$B"
t0=$(now)
make -s -C "$KIT" grade BUILD="$B" KSRC="$B/linux" OBJ="$B/obj" OUT="$B/results" >"$B.cold.log" 2>&1
t1=$(now)
touch "$B/linux/kernel/sched/deadline.c"
make -s -C "$KIT" grade BUILD="$B" KSRC="$B/linux" OBJ="$B/obj" OUT="$B/results" >"$B.regrade.log" 2>&1
t2=$(now)

caps=$KIT/grader/topologies/big-little.caps
mark=SLbench0000000000000000
"$KIT/initramfs/build.sh" run "$B/boot.cpio" "$B/initramfs.cpio" 01 "$mark"
t3=$(now)
"$KIT/grader/boot.exp" "$B/obj/arch/arm64/boot/Image" "$B/boot.cpio" \
	"$B/dtb/big-little.dtb" "$(grep -v '^#' "$caps" | wc -w)" "$mark" 120 "$B/boot.log" || true
t4=$(now)

echo "schedlab bench ($(nproc) cores, labs: $(all_labs))"
echo "  cold setup + build + grade : $(secs "$t0" "$t1") s"
echo "  regrade after touching deadline.c : $(secs "$t1" "$t2") s"
echo "  one boot (lab 01), start to poweroff : $(secs "$t3" "$t4") s"
echo "  each lab's boot + tests in that regrade:"
sed -n 's/.*\(lab [0-9]*\): boot to poweroff \([0-9]*\) ms/    \1: \2 ms/p' "$B.regrade.log"
echo "logs: $B.cold.log $B.regrade.log"
