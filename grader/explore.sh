#!/bin/bash
# make shell, make gdb, make console: the student's kernel on a lab's
# machine, to look inside it rather than grade it.
#
#   explore.sh shell [LAB]            an interactive busybox shell on the
#                                     console, in this terminal; with
#                                     stdin not a terminal, its lines as
#                                     the shell's commands (shell-input.exp)
#   explore.sh gdb [LAB] [GDB_ARG...] the same boot, stopped at its first
#                                     instruction, under gdb-multiarch
#   explore.sh console                the console of make gdb's guest, in
#                                     this terminal (Ctrl-] leaves)
#
# The boot is grading's: the lab's topology (lab.conf, its device tree),
# QEMU's machine and the kernel command line of lib.sh's qemu_argv, the
# kernel of $KSRC built by build-kernel.sh (incrementally): for the shell,
# the grading build ($OBJ); for gdb, a debug build of the same tree in
# $OBJ_DEBUG, the grading config + kconfig/debug/gdb.config (debug info and
# the kernel's gdb helpers).  The initramfs is make shell's (initramfs/
# build.sh shell); its init runs initramfs/shell.sh instead of the suites.
#
# make gdb runs QEMU in the background, its console on a pseudo-terminal
# (make console) and logged to $BUILD/gdb/console.log, and gdb in the
# foreground on a Unix socket (no TCP port to collide with another user's).
# The guest ends when gdb does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=${1:-}
shift || true
OBJ=${OBJ:-$BUILD/obj}
OBJ_DEBUG=${OBJ_DEBUG:-$BUILD/obj-debug}

if [ "$mode" = console ]; then
	pty=$(cat "$BUILD/gdb/console.pty" 2>/dev/null) || true
	[ -n "$pty" ] && [ -e "$pty" ] || die "no make gdb guest is running"
	echo "the guest's console ($pty); Ctrl-] leaves (the guest keeps running)"
	PTY=$pty exec expect -c '
		spawn -noecho -open [open $env(PTY) {RDWR NOCTTY}]
		interact \035 return
	'
fi
[ "$mode" = shell ] || [ "$mode" = gdb ] || die "usage: explore.sh shell|gdb [LAB] | console"

lab=${1:-1}
shift || true
[[ $lab =~ ^[0-9]+$ ]] || die "LAB=$lab: one lab number, please (make $mode LAB=N)"
lab=$(printf %02d "$((10#$lab))")
topology=$(lab_conf "$lab" TOPOLOGY)
title=$(lab_conf "$lab" TITLE)

if [ "$mode" = shell ]; then
	obj=$OBJ
	# SHELL_CONFIG: a fragment merged on grading's config (make coverage's).
	"$KIT/grader/build-kernel.sh" "$KSRC" "$obj" ${SHELL_CONFIG:+"$SHELL_CONFIG"} || die "no kernel to boot"
else
	obj=$OBJ_DEBUG
	"$KIT/grader/build-kernel.sh" "$KSRC" "$obj" "$KIT/kconfig/debug/gdb.config" ||
		die "no kernel to boot"
fi

run=$BUILD/$mode
mkdir -p "$run"
size=
[ ! -t 0 ] || size=$(stty size 2>/dev/null) || true
"$KIT/initramfs/build.sh" run "$run/boot.cpio" "$BUILD/initramfs-shell.cpio" \
	SHELL=/etc/shell.sh LAB="$lab" TITLE="$title" TOPOLOGY="$topology" \
	ROWS="${size% *}" COLS="${size#* }" TERM="${TERM:-vt100}"
qemu_argv "$topology" "$obj/arch/arm64/boot/Image" "$run/boot.cpio" "$run/results.log" ||
	die "no device tree for $topology"

if [ "$mode" = shell ]; then
	if [ ! -t 0 ]; then
		stage "lab $lab's machine ($topology): the lines of make shell's input, each at the guest's prompt, then poweroff"
		exec expect -f "$KIT/grader/shell-input.exp" -- "${QEMU_ARGV[@]}"
	fi
	stage "lab $lab's machine ($topology): leave with poweroff, or Ctrl-A X"
	exec "${QEMU_ARGV[@]}"
fi

sock=$run/gdb.sock
rm -f "$sock" "$run/console.pty"
# A session of its own: Ctrl-C in gdb stops the guest, and must not reach
# QEMU (which ends on SIGINT).
setsid "${QEMU_ARGV[@]}" -monitor none -chardev "pty,id=con,logfile=$run/console.log" \
	-serial chardev:con -S -gdb "unix:$sock,server=on,wait=off" </dev/null >"$run/qemu.log" 2>&1 &
qemu=$!
trap 'kill $qemu 2>/dev/null; wait $qemu 2>/dev/null; rm -f "$run/console.pty"' EXIT
trap 'exit 2' HUP TERM
for _ in $(seq 100); do
	[ ! -S "$sock" ] || break
	kill -0 $qemu 2>/dev/null || die "QEMU did not start (see $run/qemu.log)"
	sleep 0.1
done
sed -n 's|.*char device redirected to \(/dev/[^ ]*\) (label con).*|\1|p' "$run/qemu.log" >"$run/console.pty"
stage "lab $lab's machine ($topology), stopped at its first instruction ('continue' starts it)"
stage "its console: 'make console' in another terminal; its log: $run/console.log"
# The helpers: vmlinux-gdb.py beside vmlinux, a link into the tree's scripts/gdb.
gdb-multiarch -q -iex "add-auto-load-safe-path $obj" \
	-iex "add-auto-load-safe-path $(realpath "$obj/vmlinux-gdb.py")" \
	-ex "target remote $sock" "$@" "$obj/vmlinux"
