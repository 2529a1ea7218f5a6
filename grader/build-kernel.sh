#!/bin/bash
# Stage 3 of grading: configure and build a lab kernel out of tree.
#
#   build-kernel.sh SRC OBJ
#
# The config is arm64 tinyconfig + kconfig/*.config, merged with the
# kernel's own merge_config.sh; it is remade only when a fragment changed
# (or there is no .config yet).  Every option of the fragments must survive
# olddefconfig, or the build stops and names the ones that did not.
# Output: OBJ/arch/arm64/boot/Image; the whole log in OBJ/build.log.
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
mkdir -p "$OBJ"
OBJ=$(cd "$OBJ" && pwd)
LOG=$OBJ/build.log
JOBS=${JOBS:-$(nproc)}
# LOCALVERSION set (empty): the release never depends on the tree's git
# state (no "+"), so the sandbox, which hides .git, rebuilds nothing.
KMAKE=(make -C "$SRC" O="$OBJ" ARCH=arm64 CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}" -j"$JOBS"
	LOCALVERSION=)
if [ -n "${CCACHE_DIR:-}" ] && command -v ccache >/dev/null; then
	KMAKE+=(CC="ccache aarch64-linux-gnu-gcc")
fi
FRAGMENTS=("$KIT"/kconfig/*.config)

: >"$LOG"
stamp=$(cat "${FRAGMENTS[@]}" | md5sum | cut -d' ' -f1)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$OBJ/.config.schedlab" 2>/dev/null)" != "$stamp" ]; then
	stage "configuring (tinyconfig + $(cd "$KIT" && echo kconfig/*.config))"
	{
		"${KMAKE[@]}" tinyconfig &&
		# merge_config.sh keeps its temporary files in the current folder.
		(cd "$OBJ" && ARCH=arm64 "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" \
			"$OBJ/.config" "${FRAGMENTS[@]}") &&
		"${KMAKE[@]}" olddefconfig
	} >>"$LOG" 2>&1 || DIE_STATUS=2 die_log "$LOG" "kernel configuration failed"
	lost=$(cat "${FRAGMENTS[@]}" | sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)$/\1=\2/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1=n/p' |
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

stage "building $(basename "$SRC") in $OBJ"
rm -f "$OBJ/build-errors.txt"
"${KMAKE[@]}" Image >>"$LOG" 2>&1 || {
	# The compiler's and linker's own errors name the file and line.
	grep -E '(error|undefined reference|Error [0-9]+)' "$LOG" |
		grep -v '^make' | head -n 20 >"$OBJ/build-errors.txt" || true
	[ -s "$OBJ/build-errors.txt" ] || tail -n 20 "$LOG" >"$OBJ/build-errors.txt"
	sed 's/^/  | /' "$OBJ/build-errors.txt" >&2
	printf 'error: the kernel does not build (full log: %s)\n' "$LOG" >&2
	exit 1
}
used=$(du -sk "$OBJ" | cut -f1)
if [ "$used" -gt "${OBJ_MAX:-1048576}" ]; then
	echo "the build folder grew to $used KiB, past the limit of ${OBJ_MAX:-1048576} KiB" |
		tee "$OBJ/build-errors.txt" >&2
	exit 1
fi
