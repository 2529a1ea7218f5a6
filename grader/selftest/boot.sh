# shellcheck shell=bash
# Part of make test (run.sh): boot.exp and grade.sh on real boots whose
# guest misbehaves on purpose (a recorded log cannot show that a pattern
# stopped matching the console).  The kernel is the student tree's
# ($KSRC, built if needed); the guest's init is a busybox script of
# boot/, packed with busybox alone:
#
#   no-poweroff  prints the end line, then never powers off: the boot must
#                end within seconds of that line, status 0 (done);
#   panic        prints a line, then its init exits (the kernel panics);
#                booted with panic=0, so only the panic pattern can end the
#                boot quickly: status 1 within seconds.
# And a grading machine without qemu-system-aarch64 on its PATH: make grade
# must fail as a grader error (exit 2 from grade.sh, naming QEMU) and write
# no results.

stage "boot: the end line, a panic, a machine without QEMU"
BT=$SELF/boot
mkdir -p "$BT"
"$KIT/grader/build-kernel.sh" "$KSRC" "${OBJ:-$BUILD/obj}" >"$BT/build.log" 2>&1 ||
	st_ko "boot: the student tree's kernel does not build (see $BT/build.log)"
IMAGE=${OBJ:-$BUILD/obj}/arch/arm64/boot/Image
cm=SCselftest$RANDOM$RANDOM
topology=$(any_lab_topology)

# guest_boot NAME [APPEND...]: boot boot/NAME.sh as init; sets BOOT_STATUS
# and BOOT_MS.
guest_boot() {
	local name=$1 root=$BT/$1 t0
	shift
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/dev" "$root/proc"
	cp "$(sysroot_busybox)" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	sed "s/@CMARK@/$cm/" "$ST/boot/$name.sh" >"$root/init"
	chmod +x "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >"$BT/$name.cpio"
	qemu_argv "$topology" "$IMAGE" "$BT/$name.cpio" "$BT/$name.results" "$@"
	t0=$(date +%s%N)
	BOOT_STATUS=0
	"$KIT/grader/boot.exp" "$cm" 120 "$BT/$name.console" "$BT/$name.results" \
		-- "${QEMU_ARGV[@]}" 2>"$BT/$name.err" || BOOT_STATUS=$?
	BOOT_MS=$((($(date +%s%N) - t0) / 1000000))
}
# Past its line, a boot may take boot.exp's GRACE (5 s) at most; with the
# kernel's own boot, 20 s in all, where a pattern that no longer matches
# waits out the 120 s limit.
ended() { [ "$BOOT_STATUS" = "$1" ] && [ "$BOOT_MS" -lt 20000 ]; }
guest_boot no-poweroff
st_check "boot: the end line without a poweroff ends the boot as done (status $BOOT_STATUS, $BOOT_MS ms)" \
	ended 0
guest_boot panic panic=0
st_check "boot: a panic ends the boot as a panic (status $BOOT_STATUS, $BOOT_MS ms)" \
	ended 1
st_check "boot: the panic's lines are kept" grep -q 'Kernel panic - not syncing' "$BT/panic.console"

# A PATH with every tool of this machine but QEMU.
nq=$BT/no-qemu-bin
mkdir -p "$nq"
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	for f in "$d"/*; do
		[ -e "$f" ] || continue		# an empty folder's "*"
		n=${f##*/}
		case $n in qemu-system-*) continue ;; esac
		[ -e "$nq/$n" ] || ln -s "$f" "$nq/$n"
	done
done
status=0
PATH=$nq "$KIT/grader/grade.sh" --src "$KSRC" --obj "${OBJ:-$BUILD/obj}" --out "$BT/no-qemu" \
	--labs 01 >"$BT/no-qemu.log" 2>&1 || status=$?
st_check "boot: without QEMU, grade.sh fails as a grader error (status $status)" [ "$status" = 2 ]
st_check "boot: ... and says so" grep -q 'grader error: QEMU' "$BT/no-qemu.log"
no_results() { [ ! -e "$BT/no-qemu/results.json" ] && [ ! -e "$BT/no-qemu/lab01.result" ]; }
st_check "boot: ... and writes no results" no_results
