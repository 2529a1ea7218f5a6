#!/bin/bash
# Stage 3 of grading: configure and build a lab kernel out of tree.
#
#   build-kernel.sh SRC OBJ [FRAGMENT...]
#
# The config is arm64 tinyconfig + kconfig/*.config (+ the FRAGMENTs given,
# which grading never gives: make gdb's kconfig/debug/gdb.config), merged
# with the kernel's own merge_config.sh; it is remade only when a fragment
# changed (or there is no .config yet).  Every option of the fragments must
# survive olddefconfig, or the build stops and names the ones that did not.
# Output: OBJ/arch/arm64/boot/Image (and OBJ/vmlinux-gdb.py with
# CONFIG_GDB_SCRIPTS); the whole log in OBJ/build.log.
#
# While it builds, a progress line: the C files compiled so far, of about
# how many a cold build compiles, and the time left at that pace; in place
# on a terminal, otherwise a line at the first C file, every 10% and every
# minute.  V=1 shows the kernel's whole build output (each compiler
# command line) instead.
# Exit status: 0 built, 1 the kernel does not build (the compiler's errors
# in OBJ/build-errors.txt), which includes a build folder grown past
# OBJ_MAX KiB (default 1 GiB; a kernel of the kit's config takes under
# 100 MiB), 2 it could not be configured (the kit's or this machine's
# fault: the tree's own Kconfig is not the student's to change).
# Instructor grading runs this in the slot's sandbox (sandbox.sh), which
# bounds its time, memory and file sizes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SRC=$(cd "$1" && pwd)
OBJ=$2
shift 2
mkdir -p "$OBJ"
OBJ=$(cd "$OBJ" && pwd)
LOG=$OBJ/build.log
JOBS=${JOBS:-$(nproc)}
# One locale for every build: the sandbox's, C.  ccache keys an object on
# it, so a grading slot's first build and a second tree's find the
# objects of the kit's own build (lib.sh: KERNEL_CC).
export LC_ALL=C
# LOCALVERSION set (empty): the release never depends on the tree's git
# state (no "+"), so the sandbox, which hides .git, rebuilds nothing.
KMAKE=(make -C "$SRC" O="$OBJ" ARCH=arm64 CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}" -j"$JOBS"
	LOCALVERSION= CC="$KERNEL_CC")
FRAGMENTS=("$KIT"/kconfig/*.config)
for f in "$@"; do
	[ -f "$f" ] || DIE_STATUS=2 die "no config fragment $f"
	FRAGMENTS+=("$(realpath "$f")")
done
# The C files a cold build of the kit's config compiles, counted in the
# log of one (each cold build records its own count in OBJ/.cold-cc).
COLD_CC=574

: >"$LOG"
stamp=$(cat "${FRAGMENTS[@]}" | md5sum | cut -d' ' -f1)
# A cold build: no kernel built yet, or a new config (most files rebuild).
cold=
[ -e "$OBJ/vmlinux" ] || cold=1
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$OBJ/.config.schedlab" 2>/dev/null)" != "$stamp" ]; then
	cold=1
	stage "configuring (tinyconfig + ${FRAGMENTS[*]#"$KIT"/})"
	{
		"${KMAKE[@]}" tinyconfig &&
		# merge_config.sh keeps its temporary files in the current folder.
		(cd "$OBJ" && ARCH=arm64 "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" \
			"$OBJ/.config" "${FRAGMENTS[@]}") &&
		"${KMAKE[@]}" olddefconfig
	} >>"$LOG" 2>&1 || DIE_STATUS=2 die_log "$LOG" "kernel configuration failed"
	# An option a later fragment sets again is checked for its last value,
	# as merge_config.sh merges it.
	lost=$(cat "${FRAGMENTS[@]}" | sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)$/\1=\2/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1=n/p' |
		tac | sort -s -u -t= -k1,1 |
		while IFS='=' read -r opt val; do
			got=$(sed -n "s/^$opt=\(.*\)/\1/p" "$OBJ/.config")
			[ -n "$got" ] || got=n
			[ "$got" = "$val" ] || echo "  $opt: wanted $val, got $got"
		done)
	if [ -n "$lost" ]; then
		rm -f "$OBJ/.config.schedlab"
		printf 'error: these config options did not survive olddefconfig:\n%s\n' "$lost" >&2
		exit 2
	fi
	echo "$stamp" >"$OBJ/.config.schedlab"
fi

targets=(Image)
! grep -q '^CONFIG_GDB_SCRIPTS=y' "$OBJ/.config" || targets+=(scripts_gdb)
total=$(cat "$OBJ/.cold-cc" 2>/dev/null || echo "$COLD_CC")
if [ -n "$cold" ]; then
	stage "building $(basename "$SRC") in $OBJ from scratch: about $total C files, 4.5 minutes of CPU time (2-4 minutes on two free cores; on a loaded machine, longer in proportion to its load); log: $LOG"
else
	stage "building $(basename "$SRC") in $OBJ (only what changed; log: $LOG)"
fi

# progress TOTAL: until killed, the C files compiled so far (the kernel's
# "  CC" lines in the log), of about TOTAL, the time so far and, once it
# can tell, the time left at this pace.  On a terminal in place; otherwise
# a line when the first C file is compiled, at each 10%, and at least once
# a minute (a slow machine must never look hung).
progress() {
	local n pct t line last=-1 said=0 t0=$SECONDS
	while sleep 2 && kill -0 $$ 2>/dev/null; do
		n=$(grep -c '^  CC ' "$LOG") || true
		t=$((SECONDS - t0))
		pct=$((n * 100 / $1))
		[ "$pct" -le 99 ] || pct=99
		line="$pct% ($n of about $1 C files, $(seconds "$t")"
		if [ "$n" -ge 20 ] && [ "$n" -lt "$1" ]; then
			line="$line; about $(seconds $((t * ($1 - n) / n))) left"
		elif [ "$n" = 0 ]; then
			line="$line; configuring, and building the build's own tools"
		fi
		line="$line)"
		if [ -t 2 ]; then
			stage_line "$line"
		elif { [ "$n" -gt 0 ] && [ "$last" -lt 0 ]; } || [ $((pct / 10)) -gt $((last / 10)) ] ||
			[ $((t - said)) -ge 60 ]; then
			stage "$line"
			last=$pct said=$t
		fi
	done
}

rm -f "$OBJ/build-errors.txt"
t0=$SECONDS
status=0
if [ "${V:-0}" = 1 ]; then
	"${KMAKE[@]}" V=1 "${targets[@]}" 2>&1 | tee -a "$LOG" >&2 || status=$?
else
	ppid=
	if [ -n "$cold" ]; then
		progress "$total" &
		ppid=$!
	fi
	"${KMAKE[@]}" "${targets[@]}" >>"$LOG" 2>&1 || status=$?
	if [ -n "$ppid" ]; then
		kill "$ppid" 2>/dev/null
		wait "$ppid" 2>/dev/null || true
		[ ! -t 2 ] || printf '\r\033[K' >&2
	fi
fi
if [ "$status" != 0 ]; then
	# The compiler's and linker's own errors name the file and line; an
	# error in a header comes after the chain of files that included it
	# ("In file included from ...": which unit failed).
	grep -E '(error|undefined reference|Error [0-9]+|^In file included from |^ +from )' "$LOG" |
		grep -v '^make' | head -n 24 >"$OBJ/build-errors.txt" || true
	[ -s "$OBJ/build-errors.txt" ] || tail -n 20 "$LOG" >"$OBJ/build-errors.txt"
	sed 's/^/  | /' "$OBJ/build-errors.txt" >&2
	printf 'error: the kernel does not build (full log: %s)\n' "$LOG" >&2
	exit 1
fi
used=$(du -sk "$OBJ" | cut -f1)
if [ "$used" -gt "${OBJ_MAX:-1048576}" ]; then
	echo "the build folder grew to $used KiB, past the limit of ${OBJ_MAX:-1048576} KiB" |
		tee "$OBJ/build-errors.txt" >&2
	exit 1
fi
if [ "${V:-0}" = 1 ]; then
	stage "built in $(seconds $((SECONDS - t0)))"
else
	n=$(grep -c '^  CC ' "$LOG") || true
	[ -z "$cold" ] || echo "$n" >"$OBJ/.cold-cc"
	[ "$n" = 0 ] && n="nothing to compile" || n="$n C files compiled"
	stage "built in $(seconds $((SECONDS - t0))) ($n)"
fi
